import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn convert AMOUNT --to UNIT [--length-per-skein L] [--net-weight-per-skein W] [--yarn Y]`,
/// and `yarn convert SIZE --to mm|us|uk|hook` for needle and hook sizes (`NeedleSize`).
struct ConvertCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "convert", abstract: "Convert an amount of yarn to another unit.",
      discussion: """
        g, kg, oz and lb, and yd and m, always convert (1 oz = 28.349523125 g, 1 lb =
        453.59237 g, 1 kg = 1000 g, 1 yd = 0.9144 m).
        Skeins and weight need the net weight per skein, skeins and length the length per
        skein, weight and length both: give them, or --yarn to take a stash yarn's put-up
        (an option given too wins over the yarn's fact).

        A needle or hook size converts with --to mm, us (US needle size), uk (old UK needle
        size) or hook (US hook name), by the Craft Yarn Council's tables (docs/UNITS.md); a
        size between the tables' rows has no name and exits 65. The put-up options and --yarn
        do not apply to a size (64).

        EXAMPLES:
          yarn convert 1oz --to g
          yarn convert "2.5 skeins" --to yd --length-per-skein 220yd
          yarn convert 150g --to m --yarn "Cascade 220"
          yarn convert US8 --to mm
          yarn convert 5mm --to us
        """,
      arguments: [
        .variadic(
          "amount-or-size",
          "The amount, such as \"2 skeins\" (quoted or not), 150g or 300yd; with --to mm, us, uk or hook, the needle or hook size, such as 5mm or US 8."
        )
      ],
      options: [
        .value(
          "to", "unit",
          "The unit wanted: skein, g, kg, oz, lb, yd or m; for a needle size mm, us, uk or hook.",
          required: true,
          completion: .choices(YarnUnit.allCases.map(\.rawValue) + ["mm", "us", "uk", "hook"])),
        .value("length-per-skein", "length", "The length of one skein, such as 220yd."),
        .value("net-weight-per-skein", "weight", "The net weight of one skein, such as 100g."),
        .value("yarn", "yarn", "Take the put-up of this stash yarn."),
      ])
  }

  /// What the size's name is wanted in (`--to mm|us|uk|hook`).
  enum SizeName: String {
    case mm, us, uk, hook
  }

  var amount: Amount
  var unit: YarnUnit
  /// A needle or hook size to convert instead of an amount.
  var size: (NeedleSize, SizeName)?
  var length: Amount?
  var mass: Amount?
  var yarnReference: String?

  init(from values: ParsedValues) throws {
    if let to = values.value("to"), let name = SizeName(rawValue: to.trimmingSpaces().lowercased()) {
      // The argument first: an option is refused for what the size is (QA: `"1 skein" --to
      // mm --yarn W` was told about a size it is not).
      let size = try values.typedArgument(
        "amount-or-size", expected: "a needle or hook size such as 5mm or US 8"
      ) {
        try NeedleSize(parsing: $0)
      }
      // A size converts by the tables alone: a put-up would be ignored (QA: it was, silently).
      for option in ["length-per-skein", "net-weight-per-skein", "yarn"] where values.options[option] != nil {
        throw CLIError.optionDoesNotApply(
          command: values.command, option: "--\(option)", to: "a needle or hook size",
          reason: "it converts --to \(name.rawValue) by the tables alone")
      }
      self.size = (size, name)
      amount = Amount(0, .skein)
      unit = .skein
      return
    }
    let text = values.argumentList("amount-or-size").joined(separator: " ")
    if !text.isEmpty, (try? Amount(parsing: text)) == nil,
      (try? NeedleSize(parsing: text)) != nil
    {
      // A needle size with a yarn unit: say what a size converts to.
      throw CLIError.badValue(
        command: values.command, name: "--to", value: values.value("to") ?? "",
        reason: "\(visible: text) is a needle or hook size; it converts --to mm, us, uk or hook")
    }
    amount = try values.typedArgument("amount-or-size", expected: "an amount such as '3 skeins'") {
      try Amount(parsing: $0)
    }
    guard let unit = try values.unit("to") else {
      throw CLIError.missingOption(command: values.command, option: "--to")
    }
    self.unit = unit
    length = try values.length("length-per-skein")
    mass = try values.mass("net-weight-per-skein")
    yarnReference = try values.optionalReference(option: "yarn")
  }

  func run(in context: Context) throws {
    if let (size, name) = size {
      try convertSize(size, to: name, in: context)
      return
    }
    var putUp = PutUp()
    if let yarnReference {
      // Found by its ID's index or among the names that may match; then that one yarn is read.
      let yarn = try context.read { store in try References.yarn(yarnReference, in: store) }
      putUp = yarn.putUp
    }
    if let length { putUp.lengthPerSkein = length }
    if let mass { putUp.netWeightPerSkein = mass }
    let result = try UnitConversion.convert(amount, to: unit, putUp: putUp)
    if context.global.json {
      try context.printJSON(result)
    } else {
      context.output.line(result.description)
    }
  }

  /// Prints `size` in `name`: `5 mm`, `US 8`, `UK 6`, `H-8`.
  ///
  /// - Throws: `CLIError.invalidData` (65) for a size the table has no name for.
  private func convertSize(_ size: NeedleSize, to name: SizeName, in context: Context) throws {
    let text: String?
    switch name {
    case .mm: text = size.millimetreText
    case .us: text = size.usNeedle.map { "US \($0)" }
    case .uk: text = size.ukNeedle.map { "UK \($0)" }
    case .hook: text = size.hook.map { $0.first?.isNumber == true ? "US \($0)" : $0 }
    }
    guard let text else {
      let table =
        switch name {
        case .mm: "metric"
        case .us: "US needle"
        case .uk: "old UK needle"
        case .hook: "crochet hook"
        }
      throw CLIError.invalidData(
        message: "\(size.millimetreText) has no \(table) size in the tables (docs/UNITS.md)",
        hint: "sizes between the tables' rows are kept in mm only")
    }
    if context.global.json {
      struct SizeJSON: Encodable {
        let millimetres: Double
        let name: String
      }
      try context.printJSON(SizeJSON(millimetres: size.millimetres, name: text))
    } else {
      context.output.line(text)
    }
  }
}
