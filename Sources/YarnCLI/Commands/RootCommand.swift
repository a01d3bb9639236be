/// `yarn`: the root of the command tree.
struct RootCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "yarn",
      abstract: "Keep a knitter's or crocheter's yarn stash, projects and time.",
      discussion: """
        EXAMPLES:
          yarn stash add "Cascade 220" --weight worsted --length-per-skein 220yd \\
            --net-weight-per-skein 100g --quantity "3 skeins"
          yarn project add "Flax" --craft knitting --status in-progress
          yarn project use Flax "Cascade 220" "250 g"
          yarn time start Flax
          yarn backup create stash-backup.zip
          yarn undo

        Exit status: 0 success, 64 usage error, 65 bad input data, 66 input missing,
        69 a system library missing (libzip, libcrypto), 70 internal error, 73 cannot create
        output, 74 I/O error, 75 library busy (try again), 130 Ctrl-C, 143 SIGTERM.
        """,
      subcommands: [
        StashCommand.self, ProjectCommand.self, NoteCommand.self, BackupCommand.self,
        TimeCommand.self, ToolCommand.self, SummaryCommand.self, ConvertCommand.self, ExportCommand.self,
        WEFTCommand.self,
        UndoCommand.self, RedoCommand.self, HelpCommand.self, CompletionsCommand.self,
        CompleteNamesCommand.self,
      ])
  }
}
