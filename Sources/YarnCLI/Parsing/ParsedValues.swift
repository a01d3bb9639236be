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

  /// Checks that a yarn's or a project's name (`label`: `<name>` or `--name`) holds more than
  /// white space, and returns it.
  func nonEmptyName(_ value: String, label: String) throws(CLIError) -> String {
    guard !value.trimmingSpacesAndNewlines().isEmpty else {
      throw .badValue(command: command, name: label, value: value, reason: "a name cannot be empty")
    }
    return value
  }

  /// Reads option `--name`'s value with `parse`, which returns `nil` or throws for a bad value.
  ///
  /// - Throws: `CLIError.badValue` naming `--name`, the value and `expected` (or the error's
  ///   own description when `parse` throws one).
  func typed<T>(_ name: String, expected: String, _ parse: (String) throws -> T?)
    throws(CLIError) -> T?
  {
    guard let text = value(name) else { return nil }
    return try convert(text, label: "--\(name)", expected: expected, parse)
  }

  /// Reads positional argument `name` with `parse`, like `typed(_:expected:_:)`.
  func typedArgument<T>(_ name: String, expected: String, _ parse: (String) throws -> T?)
    throws(CLIError) -> T
  {
    let text = try requiredArgument(name)
    return try convert(text, label: "<\(name)>", expected: expected, parse)
  }

  private func convert<T>(
    _ text: String, label: String, expected: String, _ parse: (String) throws -> T?
  ) throws(CLIError) -> T {
    let result: T?
    do {
      result = try parse(text)
    } catch {
      throw .badValue(command: command, name: label, value: text, reason: "\(error)")
    }
    guard let result else {
      throw .badValue(command: command, name: label, value: text, reason: "expected \(expected)")
    }
    return result
  }
}
