import Foundation
import Testing
import YarnCore

@testable import YarnCLI

/// Where a program is on `$PATH`, or `nil`.
private func program(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}

private let bash = program("bash")
private let zsh = program("zsh")
private let fish = program("fish")
private let groff = program("groff")

/// Runs `executable arguments` with `environment` and standard input closed; returns the
/// status, standard output and standard error.
private func run(
  _ executable: String, _ arguments: [String], environment: [String: String] = [:],
  directory: URL? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  var env = [
    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
  ]
  if let directory {
    env["HOME"] = directory.path
    env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
    env["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
    process.currentDirectoryURL = directory
  }
  env.merge(environment) { _, new in new }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  // Read both pipes before waiting, so that a full pipe cannot block the child.
  final class Box: @unchecked Sendable { var data = Data() }
  let errData = Box()
  let group = DispatchGroup()
  DispatchQueue.global().async(group: group) {
    errData.data = err.fileHandleForReading.readDataToEndOfFile()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errData.data, as: UTF8.self)
  )
}

/// `text` in single quotes for bash.
private func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Every visible command path of the real tree, walked here (not with `CommandTree`).
private func allPaths() -> [[any ParsableCommand.Type]] {
  var result: [[any ParsableCommand.Type]] = []
  func visit(_ path: [any ParsableCommand.Type]) {
    result.append(path)
    for sub in path[path.count - 1].configuration.subcommands where !sub.configuration.isHidden {
      visit(path + [sub])
    }
  }
  visit([RootCommand.self])
  return result
}

/// `text` with its hyphens as roff writes them (`\-`).
private func roff(_ text: String) -> String {
  text.replacingOccurrences(of: "-", with: "\\-")
}

private func words(_ path: [any ParsableCommand.Type]) -> String {
  path.map { $0.configuration.name }.joined(separator: " ")
}

/// The commands whose output has no JSON form: `--json` is not one of their options.
private let withoutJSON: Set = ["yarn help", "yarn completions"]

/// Every option spelling the command at `path` accepts: its own, the global ones (not `--json`
/// for `withoutJSON`), help, and `--version` (QA: listed only at the root, though every
/// command answers it).
private func spellings(_ path: [any ParsableCommand.Type]) -> [String] {
  var options = path[path.count - 1].configuration.options + GlobalOptions.specs
  var result = ["--help", "-h", "--version"]
  options = options.filter { $0.name != "help" }
  if withoutJSON.contains(words(path)) { options = options.filter { $0.name != "json" } }
  for option in options {
    result.append("--" + option.name)
    if let short = option.short { result.append("-\(short)") }
  }
  return result
}

/// The lines of `script` from the line `start` to the first line after it equal to `end`.
private func block(_ script: String, from start: String, to end: String) -> String? {
  let lines = script.components(separatedBy: "\n")
  guard let first = lines.firstIndex(of: start) else { return nil }
  let last = lines[first...].firstIndex(of: end) ?? lines.count
  return lines[first..<last].joined(separator: "\n")
}

/// `yarn completions` and `yarn help` (issue 15 item 1): the scripts and the man page are
/// written from the command tree, checked by the shells' own syntax checks, and the bash,
/// zsh and fish scripts complete commands, options, fixed values and the library's names.
@Suite struct ShellCompletionTests {
  // MARK: Written from the tree

  /// Walking the tree: every command and every option it accepts appears in each script and
  /// in the man page, so a command added later is picked up without more work.
  @Test func everyCommandAndOptionIsInEveryScriptAndTheManPage() throws {
    let bashScript = CompletionScript.script(for: .bash, root: RootCommand.self)
    let zshScript = CompletionScript.script(for: .zsh, root: RootCommand.self)
    let fishScript = CompletionScript.script(for: .fish, root: RootCommand.self)
    let man = ManPage.page(for: [RootCommand.self])
    let paths = allPaths()
    #expect(paths.count > 40)
    for path in paths {
      let name = words(path)
      let command = path[path.count - 1].configuration
      let bashBlock = try #require(block(bashScript, from: "    '\(name)')", to: "      ;;"), "\(name)")
      let zshBlock = try #require(block(zshScript, from: "    '\(name)')", to: "      ;;"), "\(name)")
      let opts = bashBlock.components(separatedBy: "\n").first { $0.hasPrefix("      _yarn_opts=") } ?? ""
      let optWords = Set(
        opts.dropFirst("      _yarn_opts='".count).dropLast().split(separator: " ").map(String.init))
      if withoutJSON.contains(name) {
        #expect(!optWords.contains("--json") && !zshBlock.contains("'--json:"), "\(name) --json")
      }
      for spelling in spellings(path) {
        #expect(optWords.contains(spelling), "bash: \(name) \(spelling)")
        #expect(zshBlock.contains("'\(spelling):"), "zsh: \(name) \(spelling)")
        let long = spelling.hasPrefix("--") ? "-l \(spelling.dropFirst(2))" : "-s \(spelling.dropFirst())"
        #expect(
          fishScript.contains("complete -c yarn -n '__yarn_at \\'\(name)\\'' -l ")
            && fishScript.components(separatedBy: "\n").contains {
              $0.hasPrefix("complete -c yarn -n '__yarn_at \\'\(name)\\'' ") && $0.contains(" \(long)")
            }, "fish: \(name) \(spelling)")
      }
      for sub in command.subcommands where !sub.configuration.isHidden {
        let subName = sub.configuration.name
        #expect(
          bashBlock.contains(" \(subName) ") || bashBlock.contains("'\(subName) ")
            || bashBlock.contains(" \(subName)'") || bashBlock.contains("'\(subName)'"),
          "bash: \(name) \(subName)")
        #expect(zshBlock.contains("'\(subName):"), "zsh: \(name) \(subName)")
        #expect(
          fishScript.contains("complete -c yarn -n '__yarn_word \\'\(name)\\'' -a '\(subName)' "),
          "fish: \(name) \(subName)")
        for alias in sub.configuration.aliases {
          #expect(bashScript.contains("'\(name) \(alias)'"), "bash alias: \(name) \(alias)")
          #expect(fishScript.contains("'\(alias)=\(subName)'"), "fish alias: \(name) \(alias)")
        }
      }
      if path.count > 1 {
        let section = try #require(
          block(man, from: ".SS \"\(roff(name))\"", to: ".SH EXIT STATUS"), "man: \(name)")
        let own = section.components(separatedBy: "\n.SS ").first ?? ""
        for option in command.options {
          #expect(
            own.contains("\\fB\\-\\-\(roff(option.name))\\fR"),
            "man: \(name) --\(option.name)")
        }
        for argument in command.arguments {
          #expect(own.contains("<\(roff(argument.name))>"), "man: \(name) <\(argument.name)>")
        }
      }
    }
    for option in GlobalOptions.specs {
      #expect(
        man.contains(".TP\n\(option.short.map { "\\fB\\-\($0)\\fR, " } ?? "")\\fB\\-\\-\(option.name)\\fR"))
    }
    #expect(!bashScript.contains("__complete'"), "the hidden command is not offered")
    // QA: `--version` is answered under every command but was listed only at the root; each
    // command's help and man page list it now, as the scripts do (above).
    for path in paths {
      #expect(
        HelpGenerator.help(for: path).contains("\n  --version                 Show the version.\n"),
        "help: \(words(path))")
      #expect(
        ManPage.page(for: path).contains(".TP\n\\fB\\-\\-version\\fR\nShow the version.\n"),
        "man: \(words(path))")
    }
  }

  /// The tree says what values name: an argument or option named (or with the placeholder)
  /// project, yarn, file, dir completes those; the fixed choices are the words the parser
  /// reads.
  @Test func valuesSayWhatTheyName() throws {
    var projects = 0
    var yarns = 0
    for path in allPaths() {
      let config = path[path.count - 1].configuration
      for argument in config.arguments {
        if argument.name == "project" { #expect(argument.completion == .project); projects += 1 }
        if argument.name == "yarn" { #expect(argument.completion == .yarn); yarns += 1 }
        if argument.name == "file" { #expect(argument.completion == .file) }
      }
      for option in config.options {
        guard case .value(let placeholder) = option.kind else { continue }
        if placeholder == "project" { #expect(option.completion == .project) }
        if placeholder == "yarn" { #expect(option.completion == .yarn) }
        if placeholder == "file" { #expect(option.completion == .file) }
      }
    }
    #expect(projects >= 8 && yarns >= 5)
    // The words offered are read by the parsers (and cover every category).
    guard case .choices(let weights) = CompletionKind.yarnWeights else { Issue.record(); return }
    #expect(Set(weights.compactMap { YarnWeight(parsing: $0) }) == Set(YarnWeight.allCases))
    guard case .choices(let delimiters) = CompletionKind.delimiters else { Issue.record(); return }
    #expect(delimiters.compactMap { CSVOptions.delimiter(named: $0) } == [44, 59, 9])
    let craft = ProjectFields.options.first { $0.name == "craft" }?.completion
    #expect(craft == .choices(["knitting", "crochet", "weaving", "spinning", "embroidery", "other"]))
    let status = ProjectFields.options.first { $0.name == "status" }?.completion
    #expect(status == .choices(["planned", "in-progress", "finished", "frogged", "hibernating"]))
    // Category 4 has two words (docs/CLI.md): 9 words for the 8 categories.
    #expect(weights.count == 9 && YarnWeight(parsing: "worsted") == YarnWeight(parsing: "aran"))
    // A tool's kinds, the words of docs/CLI.md's tool section, on add, edit and list.
    let kinds = CompletionKind.choices(["straight", "circular", "dpn", "interchangeable", "cable", "hook"])
    for command in [ToolAdd.self, ToolEdit.self, ToolList.self] as [any ParsableCommand.Type] {
      let kind = command.configuration.options.first { $0.name == "kind" }
      #expect(kind?.completion == kinds, "\(command.configuration.name)")
    }
    let bash = CompletionScript.script(for: .bash, root: RootCommand.self)
    #expect(bash.contains("straight circular dpn interchangeable cable hook"))
  }

  /// The exit statuses and the environment agree in docs/CLI.md's table, `yarn --help` (and
  /// so the man page's DESCRIPTION), the man page's EXIT STATUS and what yarn can return.
  @Test func exitStatusesAndEnvironmentAgreeWithTheDocs() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let docs = try String(
      contentsOf: repository.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
    let section = try #require(block(docs, from: "## Errors and exit status", to: "## stash"))
    // The table's rows: `| 64 | EX_USAGE | …`.
    let documented = Set(
      section.components(separatedBy: "\n").compactMap { line -> Int32? in
        guard line.hasPrefix("| ") else { return nil }
        return Int32(line.dropFirst(2).prefix { $0 != " " })
      })
    #expect(documented == [0, 64, 65, 66, 69, 70, 73, 74, 75, 130, 143])
    #expect(Set(ExitCode.allCases.map(\.rawValue)) == documented)
    let help = RootCommand.configuration.discussion.replacingOccurrences(of: "\n", with: " ")
    let summary = try #require(help.components(separatedBy: "Exit status: ").last)
    let inHelp = Set(
      summary.split(separator: " ").compactMap { word in
        Int32(word.trimmingCharacters(in: .punctuationCharacters))
      })
    #expect(inHelp == documented)
    let man = ManPage.page(for: [RootCommand.self])
    let exit = try #require(block(man, from: ".SH EXIT STATUS", to: ".SH ENVIRONMENT"))
    let inMan = Set(
      exit.components(separatedBy: "\n").compactMap { $0.hasPrefix(".B ") ? Int32($0.dropFirst(3)) : nil })
    #expect(inMan == documented)
    // 64 names an empty file name, which was 73 (QA), as the table does.
    #expect(exit.contains("a bad value (an empty file or folder name too)"))
    // 73 names the restore that is neither --replace nor --merge, as the table does (QA).
    #expect(exit.contains("neither \\-\\-replace nor \\-\\-merge"))
    // Every variable docs/CLI.md tells people to set is in the man page's ENVIRONMENT.
    let environment = try #require(block(man, from: ".SH ENVIRONMENT", to: ".SH FILES"))
    for name in ["YARN_LIBRARY", "XDG_DATA_HOME", "HOME", "TZ", "COLUMNS", "YARN_FORCE_TERMINAL", "TMPDIR"] {
      #expect(docs.contains(name), "docs: \(name)")
      #expect(environment.contains(".B \(name)\n"), "man: \(name)")
    }
    #expect(environment.contains("when it is an absolute path"))
  }

  // MARK: help

  /// `yarn help A B` prints what `yarn A B --help` prints, for every command.
  @Test func helpPrintsWhatHelpOptionPrints() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for path in allPaths() {
      let command = path.dropFirst().map { $0.configuration.name }
      let help = try yarn.run(["help"] + command, useLibrary: false)
      let option = try yarn.run(command + ["--help"], useLibrary: false)
      #expect(help.status == 0 && option.status == 0)
      #expect(help.stdout == option.stdout, "yarn help \(command.joined(separator: " "))")
    }
    let alias = try yarn.run(["help", "stash", "ls"], useLibrary: false)
    #expect(alias.stdout == (try yarn.run(["stash", "list", "--help"], useLibrary: false)).stdout)
    let unknown = try yarn.run(["help", "stash", "exprt"], useLibrary: false)
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("exprt") && unknown.stderr.contains("export"))
    let extra = try yarn.run(["help", "undo", "now"], useLibrary: false)
    #expect(extra.status == 64 && extra.stderr.contains("now"))
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent(".local").path))
  }

  /// Every help's EXAMPLE or EXAMPLES heading stands apart, after a blank line, as the
  /// other paragraphs do (QA: `stash match --help` ran it into the text above).
  @Test func examplesFollowABlankLine() {
    for path in allPaths() {
      let lines = HelpGenerator.help(for: path).split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated()
      where line.trimmingCharacters(in: .whitespaces).hasPrefix("EXAMPLE") {
        #expect(
          index > 0 && lines[index - 1].trimmingCharacters(in: .whitespaces).isEmpty,
          "\(path.map { $0.configuration.name }.joined(separator: " ")): \(lines[max(0, index - 1)])")
      }
    }
  }

  // MARK: The man page

  @Test func manPageEscapesWhatRoffReads() {
    #expect(ManPage.escaped("--to=-2") == "\\-\\-to=\\-2")
    #expect(ManPage.escaped("a\\b") == "a\\eb")
    #expect(ManPage.escaped(".x\n'y\nz.") == "\\&.x\n\\&'y\nz.")
    #expect(ManPage.escaped("Café …") == "Caf\\[u00E9] \\[u2026]")
    #expect(ManPage.escaped("🧶") == "\\[u1F9F6]")
  }

  /// The page has the sections man(7) expects, and groff reads it without a warning.
  @Test(.enabled(if: groff != nil, "groff is not installed (Debian: apt-get install groff-base)"))
  func manPageIsCleanRoff() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let page = try yarn.run(["help", "--man"], useLibrary: false)
    #expect(page.status == 0)
    #expect(page.stdout.hasPrefix(".\\\" The manual page of yarn"))
    for section in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "FILES", "SEE ALSO",
    ] {
      #expect(page.stdout.contains("\n.SH \(section)\n"), "\(section)")
    }
    #expect(page.stdout.contains("\n.TH \"YARN\" 1 "))
    #expect(page.stdout.contains("\n.SH NAME\nyarn \\- Keep a knitter"))
    let file = try yarn.file("yarn.1", Data(page.stdout.utf8))
    let checked = try run(try #require(groff), ["-man", "-Tutf8", "-ww", "-z", file.path])
    #expect(checked.status == 0)
    #expect(checked.stderr == "", "groff: \(checked.stderr)")
    let text = try run(try #require(groff), ["-man", "-Tutf8", "-P-c", "-P-b", "-P-u", file.path])
    #expect(text.stdout.contains("yarn stash add"))
    #expect(text.stdout.contains("--length-per-skein"))
    if let man = program("man") {
      let shown = try run(man, ["-l", file.path], environment: ["MANPAGER": "cat", "PAGER": "cat"])
      #expect(shown.status == 0 && shown.stdout.contains("EXIT STATUS"))
    }
    let stash = try yarn.run(["help", "--man", "stash"], useLibrary: false)
    #expect(stash.stdout.contains("\n.TH \"YARN\\-STASH\" 1 "))
    #expect(stash.stdout.contains(".SS \"yarn stash add\"") && !stash.stdout.contains(".SS \"yarn project"))
  }

  // MARK: yarn __complete

  /// The names, one a line, in the order they were added; a prefix filters them, case
  /// aside; a library that is not there gives nothing, creates nothing, and says nothing.
  @Test func completeNamesPrintsNamesQuietly() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Grandma's Cowl"])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["project", "add", "grey socks"])
    try yarn.ok(["stash", "add", "Cascade 220"])
    #expect(try yarn.ok(["__complete", "projects"]).stdout == "Grandma's Cowl\nFlax\ngrey socks\n")
    #expect(try yarn.ok(["__complete", "projects", "--", "gr"]).stdout == "Grandma's Cowl\ngrey socks\n")
    #expect(try yarn.ok(["__complete", "projects", "Grandma's "]).stdout == "Grandma's Cowl\n")
    #expect(try yarn.ok(["__complete", "yarns"]).stdout == "Cascade 220\n")
    // A name with a control character (written past the rules) is left out.
    try yarn.storeBreakingTheRules(Yarn(id: "bad00001", name: "Red\u{1B}[31m Alert"))
    try yarn.storeBreakingTheRules(Yarn(id: "bad00002", name: "Two\nLines"))
    #expect(try yarn.ok(["__complete", "yarns"]).stdout == "Cascade 220\n")
    let missing = yarn.directory.appendingPathComponent("none")
    let none = try yarn.run(["--library", missing.path, "__complete", "yarns"], useLibrary: false)
    #expect(none.status == 0 && none.stdout == "" && none.stderr == "")
    #expect(!FileManager.default.fileExists(atPath: missing.path))
    let broken = yarn.directory.appendingPathComponent("broken")
    try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
    try Data("not a database".utf8).write(to: broken.appendingPathComponent("library.sqlite"))
    let bad = try yarn.run(["--library", broken.path, "__complete", "projects"], useLibrary: false)
    #expect(bad.status == 0 && bad.stdout == "" && bad.stderr == "")
    // Hidden from people: not in the help.
    #expect(!(try yarn.run(["--help"], useLibrary: false)).stdout.contains("__complete"))
  }

  // MARK: The scripts in their shells

  private func script(_ shell: String, _ yarn: YarnRunner) throws -> URL {
    let result = try yarn.run(["completions", shell], useLibrary: false)
    #expect(result.status == 0 && result.stderr == "")
    return try yarn.file("yarn.\(shell)", Data(result.stdout.utf8))
  }

  @Test func completionsRefuseAnUnknownShell() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["completions", "tcsh"], useLibrary: false)
    #expect(result.status == 64)
    #expect(result.stderr.contains("tcsh") && result.stderr.contains("bash, zsh or fish"))
  }

  /// scripts/install.sh puts the binary, the man page and the three scripts under PREFIX,
  /// written by the binary it installs.
  @Test(.enabled(if: bash != nil, "bash is not installed")) func installScriptInstallsAll() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let prefix = yarn.directory.appendingPathComponent("prefix with space")
    let installed = try run(
      try #require(bash), [repository.appendingPathComponent("scripts/install.sh").path, prefix.path],
      environment: ["YARN_BINARY": try #require(YarnRunner.executable).path], directory: yarn.directory)
    #expect(installed.status == 0, "\(installed.stderr)")
    let files: [(String, [String])] = [
      ("share/man/man1/yarn.1", ["help", "--man"]),
      ("share/bash-completion/completions/yarn", ["completions", "bash"]),
      ("share/zsh/site-functions/_yarn", ["completions", "zsh"]),
      ("share/fish/vendor_completions.d/yarn.fish", ["completions", "fish"]),
    ]
    for (path, arguments) in files {
      let text = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
      #expect(text == (try yarn.run(arguments, useLibrary: false)).stdout, "\(path)")
    }
    let binary = prefix.appendingPathComponent("bin/yarn").path
    #expect(FileManager.default.isExecutableFile(atPath: binary))
    #expect((try run(binary, ["--version"])).stdout == "yarn \(YarnTool.version)\n")
  }

  @Test(.enabled(if: bash != nil, "bash is not installed")) func bashScriptPassesBashN() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let checked = try run(try #require(bash), ["-n", try script("bash", yarn).path])
    #expect(checked.status == 0 && checked.stderr == "", "\(checked.stderr)")
  }

  @Test(.enabled(if: zsh != nil, "zsh is not installed (Debian: apt-get install zsh)"))
  func zshScriptPassesZshN() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let checked = try run(try #require(zsh), ["-n", try script("zsh", yarn).path])
    #expect(checked.status == 0 && checked.stderr == "", "\(checked.stderr)")
  }

  @Test(.enabled(if: fish != nil, "fish is not installed (Debian: apt-get install fish)"))
  func fishScriptPassesFishNoExecute() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let checked = try run(try #require(fish), ["--no-execute", try script("fish", yarn).path])
    #expect(checked.status == 0 && checked.stderr == "", "\(checked.stderr)")
  }

  /// A library with "Grandma's Cowl" and "Flax" (projects) and "Cascade 220" (a yarn).
  private func makeLibrary(_ yarn: YarnRunner) throws {
    try yarn.ok(["project", "add", "Grandma's Cowl"])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["stash", "add", "Cascade 220"])
  }

  /// COMPREPLY after sourcing the bash script, setting COMP_WORDS to `yarn` (the built one)
  /// and `words` (the last being completed) and calling the completion function. COMP_LINE
  /// is the words with a space between them, or `yarn` and `line`: the line typed, of which
  /// bash made `words` (split at a colon too, as COMP_WORDBREAKS says).
  private func bashCompletions(
    _ script: URL, _ words: [String], line: String? = nil, environment: [String: String] = [:],
    in yarn: YarnRunner
  ) throws -> [String] {
    let executable = try #require(YarnRunner.executable).path
    let all = [executable] + words
    let typed = line.map { "\(executable) \($0)" } ?? all.joined(separator: " ")
    let driver = """
      source \(shellQuoted(script.path))
      COMP_WORDS=(\(all.map(shellQuoted).joined(separator: " ")))
      COMP_CWORD=\(all.count - 1)
      COMP_LINE=\(shellQuoted(typed))
      COMP_POINT=${#COMP_LINE}
      _yarn
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try run(
      try #require(bash), ["-c", driver], environment: environment, directory: yarn.directory)
    #expect(result.status == 0 && result.stderr == "", "\(words): \(result.stderr)")
    return result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  @Test(.enabled(if: bash != nil, "bash is not installed")) func bashCompletesCommandsOptionsAndNames() throws
  {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    let script = try script("bash", yarn)
    let library = yarn.library.path
    func complete(_ words: [String], _ environment: [String: String] = [:]) throws -> [String] {
      try bashCompletions(script, words, environment: environment, in: yarn)
    }
    #expect(try complete(["st"]) == ["stash"])
    #expect(try complete(["comp"]) == ["completions"])
    #expect(try complete(["__"]) == [], "the hidden command is not offered")
    #expect(try complete(["stash", "l"]) == ["list"])
    #expect(try complete(["stash", "ls", "--so"]) == ["--sort"])
    #expect(try complete(["stash", "ls", "--sort", ""]) == ["name", "added", "remaining", "weight"])
    #expect(try complete(["project", "add", "x", "--craft", "k"]) == ["knitting"])
    #expect(try complete(["project", "list", "--status", "f"]) == ["finished", "frogged"])
    #expect(try complete(["time", "report", "--by", ""]) == ["project", "day", "week", "month"])
    #expect(try complete(["completions", ""]) == ["bash", "zsh", "fish"])
    // `yarn help` takes command words.
    #expect(try complete(["help", "st"]) == ["stash"])
    #expect(try complete(["help", "stash", "ex"]) == ["export"])
    #expect(try complete(["help", "--man", "time", "l"]) == ["log"])
    #expect(try complete(["help", "stash", "ls", ""]) == [])
    #expect(try complete(["--library", library, "stash", "add", "x", "--q"]) == ["--quantity", "--quiet"])
    // Project and yarn names, escaped for the line (a space, an apostrophe).
    let projects = ["Grandma\\'s\\ Cowl", "Flax"]
    #expect(try complete(["--library", library, "time", "start", ""]) == projects)
    #expect(try complete(["time", "start", "--library", library, "gr"]) == ["Grandma\\'s\\ Cowl"])
    #expect(try complete(["time", "start", ""], ["YARN_LIBRARY": library]) == projects)
    #expect(
      try complete(["--library", library, "time", "start", "Grandma\\'s\\ C"]) == ["Grandma\\'s\\ Cowl"])
    #expect(try complete(["--library", library, "time", "start", "\"Gr"]) == ["Grandma's Cowl\""])
    #expect(try complete(["--library", library, "time", "start", "'Gr"]) == ["Grandma'\\''s Cowl'"])
    #expect(try complete(["--library", library, "project", "use", "Flax", ""]) == ["Cascade\\ 220"])
    #expect(try complete(["--library", library, "project", "use", "Flax", "Cascade 220", ""]) == [])
    #expect(try complete(["--library", library, "note", "add", "--yarn", "c"]) == ["Cascade\\ 220"])
    #expect(try complete(["--library", library, "note", "add", "--project=F"]) == ["--project=Flax"])
    // `--library=DIR` and `--project=` split at = (bash's COMP_WORDBREAKS).
    #expect(
      try bashCompletions(
        script, ["--library", "=", library, "time", "log", "--project", "=", "F"],
        line: "--library=\(library) time log --project=F", in: yarn) == ["Flax"])
    #expect(try complete(["--library=\(library)", "project", "show", "F"]) == ["Flax"])
    // After `--`, only arguments.
    #expect(try complete(["--library", library, "time", "start", "--", "F"]) == ["Flax"])
    // Files and directories.
    _ = try yarn.file("backup one.zip", Data())
    #expect(try complete(["backup", "verify", "backup"]) == ["backup one.zip"])
    #expect(try complete(["--library", "lib"]) == ["library"])
    // A library that is not there: no names, no library made, nothing printed.
    let missing = yarn.directory.appendingPathComponent("none").path
    #expect(try complete(["--library", missing, "project", "show", ""]) == [])
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// QA: after an opening `"`, `Shelter "Almanac"` was inserted as `Shelter \"Almanac\"`, and
  /// bash, the line ending with the quote, did not close it (a `>` prompt followed Enter); a
  /// name with a colon, which bash splits the word at, did not complete from `Odd:\ c` or
  /// `Odd:`, nor the argument after it. Each line is completed as readline does it (the text
  /// after the opening quote or the last colon replaced by the one completion, then the quote
  /// closed unless the line already ends with it) and read back by bash: the name, one word.
  /// QA again: so for `=` and `@`, the other word breaks bash splits an unquoted word at
  /// (`Hat\ \(size=`, `Gift@M`). COMP_WORDS are as bash 5.2 made them on a terminal, and
  /// readline replaces the text after the last break, from a `@` (a special prefix) on.
  @Test(.enabled(if: bash != nil, "bash is not installed")) func bashCompletesANameThatBashReadsBack() throws
  {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Shelter \"Almanac\""])
    try yarn.ok(["stash", "add", "Cascade 220"])
    try yarn.ok(["project", "add", "Café \"quoted\""])
    try yarn.ok(["project", "add", "Odd: colon name"])
    try yarn.ok(["project", "add", "Hat (size=M)"])
    try yarn.ok(["project", "add", "Gift@Mum"])
    try yarn.ok(["project", "add", "A&B; <x>|(y)"])
    try yarn.ok(["project", "add", "Mix:=@Match"])
    try yarn.ok(["project", "add", #"Shelter "Almanac""#])
    try yarn.ok(["project", "add", "Cost $5"])
    try yarn.ok(["project", "add", #"Back\slash"#])
    try yarn.ok(["project", "add", #"C:\stuff"#])
    let script = try script("bash", yarn)
    let environment = ["YARN_LIBRARY": yarn.library.path]
    // The words bash reads in `line` completed, after `yarn`; [] when it has no one completion.
    func completed(_ line: String, _ words: [String], replacing text: String, quote: Character? = nil) throws
      -> [String]
    {
      let replies = try bashCompletions(script, words, line: line, environment: environment, in: yarn)
      guard replies.count == 1 else { return [] }
      var result = String(line.dropLast(text.count)) + replies[0]
      if let quote, result.last != quote { result.append(quote) }
      let read = try run(try #require(bash), ["-c", "printf '%s\\n' " + result])
      #expect(read.status == 0 && read.stderr == "", "\(result): \(read.stderr)")
      return read.stdout.split(separator: "\n").map(String.init)
    }
    let shelter = "Shelter \"Almanac\""
    #expect(
      try completed("stash show \"Shel", ["stash", "show", "\"Shel"], replacing: "Shel", quote: "\"")
        == ["stash", "show", shelter])
    #expect(
      try completed("project show \"Caf", ["project", "show", "\"Caf"], replacing: "Caf", quote: "\"")
        == ["project", "show", "Café \"quoted\""])
    #expect(
      try completed("stash show 'Shel", ["stash", "show", "'Shel"], replacing: "Shel", quote: "'")
        == ["stash", "show", shelter])
    #expect(
      try completed("stash show Shel", ["stash", "show", "Shel"], replacing: "Shel") == [
        "stash", "show", shelter,
      ])
    // Several names: the quote stays open for more.
    #expect(
      try bashCompletions(script, ["stash", "show", "\""], environment: environment, in: yarn)
        == ["Shelter \\\"Almanac\\\"", "Cascade 220"])
    // bash splits `Odd:\ c` into `Odd`, `:`, `\ c` and replaces only `\ c`.
    let odd = ["project", "show", "Odd: colon name"]
    #expect(
      try completed("project show Odd:\\ c", ["project", "show", "Odd", ":", "\\ c"], replacing: "\\ c")
        == odd)
    #expect(try completed("project show Odd:", ["project", "show", "Odd", ":"], replacing: "") == odd)
    #expect(
      try completed(
        "project use Odd:\\ colon\\ name Cas", ["project", "use", "Odd", ":", "\\ colon\\ name", "Cas"],
        replacing: "Cas") == ["project", "use", "Odd: colon name", "Cascade 220"])
    #expect(
      try completed(
        "time log --project=Odd:\\ c", ["time", "log", "--project", "=", "Odd", ":", "\\ c"],
        replacing: "\\ c")
        == ["time", "log", "--project=Odd: colon name"])
    // `=`: `Hat\ \(size=M` is `Hat\ \(size`, `=`, `M` (the escaped `(` breaks nothing).
    let hat = ["project", "show", "Hat (size=M)"]
    #expect(
      try completed("project show Hat\\ \\(size=", ["project", "show", "Hat\\ \\(size", "="], replacing: "")
        == hat)
    #expect(
      try completed(
        "project show Hat\\ \\(size=M", ["project", "show", "Hat\\ \\(size", "=", "M"], replacing: "M")
        == hat)
    #expect(
      try completed(
        "time log --project=Hat\\ \\(size=M", ["time", "log", "--project", "=", "Hat\\ \\(size", "=", "M"],
        replacing: "M") == ["time", "log", "--project=Hat (size=M)"])
    // `@`: readline replaces `@M`, the `@` with the text after it.
    let gift = ["time", "start", "Gift@Mum"]
    #expect(try completed("time start Gift@M", ["time", "start", "Gift", "@", "M"], replacing: "@M") == gift)
    #expect(try completed("time start Gift@", ["time", "start", "Gift", "@"], replacing: "@") == gift)
    #expect(
      try completed(
        "time log --project=Gift@M", ["time", "log", "--project", "=", "Gift", "@", "M"], replacing: "@M")
        == ["time", "log", "--project=Gift@Mum"])
    // The argument after such a name is the next one.
    #expect(
      try completed(
        "project use Gift@Mum Cas", ["project", "use", "Gift", "@", "Mum", "Cas"], replacing: "Cas")
        == ["project", "use", "Gift@Mum", "Cascade 220"])
    // Breaks in a row are one word (`:=@`).
    let mix = ["project", "show", "Mix:=@Match"]
    #expect(
      try completed("project show Mix:=@M", ["project", "show", "Mix", ":=@", "M"], replacing: "@M") == mix)
    #expect(try completed("project show Mix:=", ["project", "show", "Mix", ":="], replacing: "") == mix)
    // `&`, `;`, `<`, `>`, `|`, `(`, escaped, break no word.
    let ampersand = "A\\&B\\;\\ \\<x\\>\\|\\(y\\)"
    #expect(
      try completed(
        "project show A\\&B\\;\\ \\<", ["project", "show", "A\\&B\\;\\ \\<"], replacing: "A\\&B\\;\\ \\<")
        == ["project", "show", "A&B; <x>|(y)"])
    #expect(
      try completed("project use \(ampersand) Cas", ["project", "use", ampersand, "Cas"], replacing: "Cas")
        == ["project", "use", "A&B; <x>|(y)", "Cascade 220"])
    // A prefix holding an escape is matched as bash reads it: in "...", `\"`, `\$`, `\\`;
    // outside quotes, `\\` (and `C:\\s` split at the `:`).
    #expect(
      try completed(
        #"project show "Shelter \"Al"#, ["project", "show", #""Shelter \"Al"#], replacing: #"Shelter \"Al"#,
        quote: "\"") == ["project", "show", #"Shelter "Almanac""#])
    #expect(
      try completed(
        #"project show "Cost \$"#, ["project", "show", #""Cost \$"#], replacing: #"Cost \$"#, quote: "\"")
        == ["project", "show", "Cost $5"])
    let backslash = ["project", "show", #"Back\slash"#]
    #expect(
      try completed(
        #"project show "Back\\sl"#, ["project", "show", #""Back\\sl"#], replacing: #"Back\\sl"#, quote: "\"")
        == backslash)
    #expect(
      try completed(#"project show Back\\sl"#, ["project", "show", #"Back\\sl"#], replacing: #"Back\\sl"#)
        == backslash)
    #expect(
      try completed(#"project show C:\\s"#, ["project", "show", "C", ":", #"\\s"#], replacing: #"\\s"#)
        == ["project", "show", #"C:\stuff"#])
    #expect(
      try completed(
        #"note list --project=C:\\s"#, ["note", "list", "--project", "=", "C", ":", #"\\s"#],
        replacing: #"\\s"#) == ["note", "list", #"--project=C:\stuff"#])
  }

  @Test(.enabled(if: zsh != nil, "zsh is not installed (Debian: apt-get install zsh)"))
  func zshCompletesCommandsOptionsAndNames() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    let script = try script("zsh", yarn)
    let executable = try #require(YarnRunner.executable).path
    // compadd, _describe and _files replaced by functions printing what they are given.
    func complete(_ words: [String]) throws -> String {
      let all = [executable] + words
      let driver = """
        autoload -Uz compinit 2>/dev/null
        compdef() { : }
        source \(shellQuoted(script.path))
        compadd() { if [[ $1 == -a ]]; then print -rl -- "${(@P)2}"; else shift; print -rl -- "$@"; fi }
        _describe() { print -rl -- "${(@P)4}" }
        _files() { print -r -- "_files $*" }
        compset() { : }
        words=(\(all.map(shellQuoted).joined(separator: " ")))
        CURRENT=\(all.count)
        _yarn
        """
      let result = try run(try #require(zsh), ["-f", "-c", driver], directory: yarn.directory)
      #expect(result.stderr == "", "\(words): \(result.stderr)")
      return result.stdout
    }
    let library = yarn.library.path
    #expect(try complete(["stash", ""]).hasPrefix("add:Add a yarn to the stash.\nlist:"))
    #expect(
      try complete(["project", "add", "x", "--status", ""])
        == "planned\nin-progress\nfinished\nfrogged\nhibernating\n")
    #expect(try complete(["--library", library, "time", "start", ""]) == "Grandma's Cowl\nFlax\n")
    #expect(try complete(["--library", library, "project", "use", "Flax", ""]) == "Cascade 220\n")
    #expect(try complete(["backup", "restore", ""]) == "_files \n")
    #expect(try complete(["stash", "add", "--"]).contains("--brand:The maker"))
    #expect(try complete(["help", "time", ""]).hasPrefix("start:Start a timer on a project.\n"))
  }

  /// The zsh script installed as `_yarn` in `$fpath`, in an interactive zsh on a
  /// pseudo-terminal (zsh/zpty) after `compinit`: TAB completes a project's name.
  @Test(.enabled(if: zsh != nil, "zsh is not installed (Debian: apt-get install zsh)"))
  func zshCompletesOnATerminal() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    let functions = yarn.directory.appendingPathComponent("functions")
    try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
    let text = try yarn.run(["completions", "zsh"], useLibrary: false).stdout
    try Data(text.utf8).write(to: functions.appendingPathComponent("_yarn"))
    let bin = yarn.directory.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("yarn"), withDestinationURL: try #require(YarnRunner.executable))
    func complete(_ line: String, until expected: String) throws -> String {
      let setup =
        "fpath=(\(shellQuoted(functions.path)) $fpath); PATH=\(shellQuoted(bin.path)):$PATH; "
        + "autoload -U compinit; compinit -u -D; PROMPT='>'"
      let driver = """
        zmodload zsh/zpty || exit 3
        zpty z 'zsh -f -i'
        zpty -w z \(shellQuoted(setup))
        zpty -w -n z \(shellQuoted(line))$'\\t'
        out=''
        for i in {1..100}; do
          while zpty -r -t z chunk; do out+=$chunk; done
          [[ $out == *\(shellQuoted(expected))* || $out == *$'\\a'* ]] && break
          sleep 0.1
        done
        zpty -d z
        print -r -- $out
        """
      let result = try run(try #require(zsh), ["-f", "-c", driver], directory: yarn.directory)
      #expect(result.status == 0, "\(result.stderr)")
      return result.stdout
    }
    let library = shellQuoted(yarn.library.path)
    #expect(try complete("yarn sta", until: "yarn stash").contains("yarn stash"))
    let name = "start Grandma\\'s\\ Cowl"
    #expect(try complete("yarn --library \(library) time start Gr", until: name).contains(name))
  }

  @Test(.enabled(if: fish != nil, "fish is not installed (Debian: apt-get install fish)"))
  func fishCompletesCommandsOptionsAndNames() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    let script = try script("fish", yarn)
    let bin = yarn.directory.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("yarn"), withDestinationURL: try #require(YarnRunner.executable))
    let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    func complete(_ line: String) throws -> [String] {
      let driver = "source \(shellQuoted(script.path)); complete -C \(shellQuoted(line))"
      let result = try run(
        try #require(fish), ["--no-config", "-c", driver], environment: ["PATH": path],
        directory: yarn.directory)
      #expect(result.stderr == "", "\(line): \(result.stderr)")
      return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
    let library = shellQuoted(yarn.library.path)
    #expect(try complete("yarn sta") == ["stash"])
    #expect(try complete("yarn stash add x --weight ").contains("worsted"))
    #expect(Set(try complete("yarn --library \(library) time start ")) == ["Grandma's Cowl", "Flax"])
    #expect(try complete("yarn --library \(library) project use Flax ") == ["Cascade 220"])
    #expect(try complete("yarn project list --craft=cr") == ["--craft=crochet"])
    #expect(try complete("yarn stash add x --bra") == ["--brand"])
    #expect(try complete("yarn help stash ex") == ["export"])
  }
}
