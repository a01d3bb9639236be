#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Writing to a closed pipe (`yarn stash list | head -1`) fails with EPIPE instead of killing
// the process, so that the error is reported and the store closed.
signal(SIGPIPE, SIG_IGN)

/// The process's environment, read from the C library's `environ`: cheaper at start-up than
/// setting up `ProcessInfo`, which `yarn time start` would otherwise pay for.
func processEnvironment() -> [String: String] {
  #if os(Linux)
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(text[..<equals])
        // The first definition wins, as getenv(3) reads it.
        if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
      }
      entry += 1
    }
    return variables
  #else
    return ProcessInfo.processInfo.environment
  #endif
}

let status = YarnTool.main(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: processEnvironment(),
  output: .standardOutput(), messages: .standardError())
exit(status)
