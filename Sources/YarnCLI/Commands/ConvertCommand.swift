import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn convert AMOUNT --to UNIT [--length-per-skein L] [--net-weight-per-skein W] [--yarn Y]`.
struct ConvertCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "convert", abstract: "Convert an amount of yarn to another unit.",
      discussion: """
        g and oz, and yd and m, always convert (1 oz = 28.349523125 g, 1 yd = 0.9144 m).
        Skeins and weight need the net weight per skein, skeins and length the length per
        skein, weight and length both: give them, or --yarn to take a stash yarn's put-up
        (an option given too wins over the yarn's fact).

        EXAMPLES:
          yarn convert 1oz --to g
          yarn convert "2.5 skeins" --to yd --length-per-skein 220yd
          yarn convert 150g --to m --yarn "Cascade 220"
        """,
      arguments: [
        .variadic("amount", "The amount, such as \"2 skeins\" (quoted or not), 150g or 300yd.")
      ],
      options: [
        .value(
          "to", "unit", "The unit wanted: skein, g, oz, yd or m.", required: true,
          completion: .cases(of: YarnUnit.self)),
        .value("length-per-skein", "length", "The length of one skein, such as 220yd."),
        .value("net-weight-per-skein", "weight", "The net weight of one skein, such as 100g."),
        .value("yarn", "yarn", "Take the put-up of this stash yarn."),
      ])
  }

  var amount: Amount
  var unit: YarnUnit
  var length: Amount?
  var mass: Amount?
  var yarnReference: String?

  init(from values: ParsedValues) throws {
    amount = try values.typedArgument("amount", expected: "an amount such as '3 skeins'") {
      try Amount(parsing: $0)
    }
    guard let unit = try values.unit("to") else {
      throw CLIError.missingOption(command: values.command, option: "--to")
    }
    self.unit = unit
    length = try values.length("length-per-skein")
    mass = try values.mass("net-weight-per-skein")
    yarnReference = values.value("yarn")
  }

  func run(in context: Context) throws {
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
}
