import YarnCore

/// The values of one parsed command line, before they are given types.
///
/// Keys are the option's long name without dashes and the argument's name. A command reads its
/// typed values from here in `init(from:)`; the typed readers (`ParsedValues+Types.swift`) turn
/// a bad value into `CLIError.badValue` naming the option and the value.
struct ParsedValues: Equatable {
  /// The command path, such as `["yarn", "stash", "add"]`.
  var command: [String]
  /// Every value given to each option, in order.
  var options: [String: [String]] = [:]
  /// The flags given.
  var flags: Set<String> = []
  /// The positional values of each argument (several for a variadic one).
  var arguments: [String: [String]] = [:]

  /// Whether the flag `name` was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name`, the last one when given several times.
  func value(_ name: String) -> String? { options[name]?.last }

  /// The value of the positional argument `name`, or `nil` when an optional one was not given.
  func argument(_ name: String) -> String? { arguments[name]?.first }

  /// Every value of a variadic argument.
  func argumentList(_ name: String) -> [String] { arguments[name] ?? [] }

  /// The value of a required argument; the parser has checked that it is there.
  func requiredArgument(_ name: String) throws(CLIError) -> String {
    guard let value = argument(name) else {
      throw .missingArgument(command: command, name: name)
    }
    return value
  }

  /// A yarn's, a project's or a pattern's name (`label`: `<name>` or `--name`) without the
  /// spaces around it: one line (`LineText`) of at most `LineText.maximumLength` (200)
  /// Characters, and more than white space.
  ///
  /// - Throws: `CLIError.badValue` naming `label`, when the name is empty, holds a control
  ///   character (naming it: `holds a line break (U+000A); it must be one line`) or is too
  ///   long, in the words of the model's rules (`Rules.name(_:field:)`).
  func nonEmptyName(_ value: String, label: String) throws(CLIError) -> String {
    // A blank name is `nil` here, and the name rule says it is blank.
    let name = try line(value, label: label) ?? ""
    if let violation = Rules.name(name) {
      throw .badValue(command: command, name: label, value: value, reason: violation.reason)
    }
    return name
  }

  /// The value of option `--name`, a one-line text field such as `--brand` (`LineText`),
  /// where an empty value means "clear it".
  ///
  /// - Parameter limit: the most Characters allowed (200; `Rules.maximumURLLength` for a URL).
  /// - Returns: `nil` when the option is absent, `.some(nil)` for a blank value
  ///   (`LineText.optional`: empty, spaces only, or invisible characters only such as
  ///   U+200B: `--brand ""`), else the value without the spaces around it.
  /// - Throws: `CLIError.badValue` naming the option, when the value holds a control
  ///   character or is too long.
  func singleLine(_ name: String, limit: Int = LineText.maximumLength) throws(CLIError) -> String?? {
    guard let text = value(name) else { return nil }
    return .some(try line(text, label: "--\(name)", limit: limit))
  }

  /// `text` checked by `LineText.optional(_:limit:)`; a problem is `CLIError.badValue` whose
  /// reason is the model's rule's (`Rules.line(_:field:limit:)`), such as `holds a line break
  /// (U+000A); it must be one line`.
  private func line(
    _ text: String, label: String, limit: Int = LineText.maximumLength
  ) throws(CLIError) -> String? {
    switch LineText.optional(text, limit: limit) {
    case .success(let trimmed):
      return trimmed
    case .failure(let problem):
      // The start is enough to tell which value it is.
      var shown = text
      if case .controlCharacter = problem {} else { shown = LineText.shortened(shown) }
      let reason = Rules.line(text, field: label, limit: limit)?.reason ?? "\(problem)"
      throw .badValue(command: command, name: label, value: shown, reason: reason)
    }
  }

  /// Reads option `--name`'s value with `parse`, which returns `nil` or throws for a bad value.
  ///
  /// - Throws: `CLIError.badValue` naming `--name`, the value and `expected` (or the error's
  ///   words, `ErrorPresenter.valueReason`, when `parse` throws one).
  func typed<T>(_ name: String, expected: String, _ parse: (String) throws -> T?)
    throws(CLIError) -> T?
  {
    guard let text = value(name) else { return nil }
    return try convert(text, label: "--\(name)", expected: expected, parse)
  }

  /// Reads positional argument `name` with `parse`, like `typed(_:expected:_:)`. For a
  /// variadic argument its words are joined with spaces (`2 skeins` typed unquoted).
  func typedArgument<T>(_ name: String, expected: String, _ parse: (String) throws -> T?)
    throws(CLIError) -> T
  {
    let words = argumentList(name)
    let text = words.count > 1 ? words.joined(separator: " ") : try requiredArgument(name)
    return try convert(text, label: "<\(name)>", expected: expected, parse)
  }

  private func convert<T>(
    _ text: String, label: String, expected: String, _ parse: (String) throws -> T?
  ) throws(CLIError) -> T {
    let result: T?
    do {
      result = try parse(text)
    } catch {
      throw .badValue(command: command, name: label, value: text, reason: ErrorPresenter.valueReason(error))
    }
    guard let result else {
      throw .badValue(command: command, name: label, value: text, reason: "expected \(expected)")
    }
    return result
  }
}
