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

let status = YarnTool.main(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessInfo.processInfo.environment,
  output: .standardOutput(), messages: .standardError())
exit(status)
