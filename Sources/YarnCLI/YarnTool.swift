import Foundation
import YarnCore

/// The `yarn` tool: parses the command line, runs the command, and reports an error.
///
/// `main` is the only function that prints an error, and it returns the exit status that
/// `main.swift` exits with.
enum YarnTool {
  /// The tool's version, shown by `--version` and written into backups as the generator.
  static let version = "0.1.0"

  /// The root of the command tree.
  static var root: any ParsableCommand.Type { RootCommand.self }

  /// Runs one command line (without the program name) and returns the exit status.
  static func main(
    arguments: [String], environment: [String: String], output: TextOutput,
    messages: TextOutput, now: Date = Date()
  ) -> Int32 {
    let parser = CommandParser(root: root)
    do {
      switch try parser.parse(arguments) {
      case .help(let path):
        output.write(HelpGenerator.help(for: path))
      case .version:
        output.line("yarn \(version)")
      case .run(let type, let values):
        let context = Context(
          global: GlobalOptions(values), environment: environment, now: now, output: output,
          messages: messages)
        let command = try type.init(from: values)
        try command.run(in: context)
      }
      try output.flush()
      try messages.flush()
      return ExitCode.success.rawValue
    } catch {
      try? output.flush()
      let report = ErrorPresenter.report(for: error, root: root)
      messages.write(report.text)
      try? messages.flush()
      return report.code.rawValue
    }
  }
}
