/// The shell completion scripts `yarn completions bash|zsh|fish` prints, written from the
/// command tree (`CommandTree`): every visible command, alias and option, and what each
/// argument's or option's value names (`CompletionKind`).
///
/// Each script reads the words typed so far as the parser does (subcommand words, options
/// with their values, `--` ending the options), then offers the subcommands, the options, or
/// the value wanted at the cursor. Project and yarn names come from
/// `yarn __complete projects|yarns [PREFIX]` (`CompleteNamesCommand`), run with the
/// `--library` typed on the line, if any.
enum CompletionScript {
  /// The shells a script is written for.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  /// The script for `shell`, for the tree under `root`.
  static func script(for shell: Shell, root: any ParsableCommand.Type) -> String {
    switch shell {
    case .bash: bash(root: root)
    case .zsh: zsh(root: root)
    case .fish: fish(root: root)
    }
  }

  /// `text` in single quotes for a POSIX shell (bash, zsh): `'` written `'\''`.
  static func quoted(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
  }

  /// `text` in single quotes for fish: `\` and `'` escaped with a backslash.
  static func fishQuoted(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }

  /// The kind of each visible command's positional arguments, such as `project yarn none`;
  /// `variadic` is whether the last one takes every remaining word.
  static func argumentKinds(_ command: any ParsableCommand.Type) -> (kinds: [String], variadic: Bool) {
    let arguments = command.configuration.arguments
    return (arguments.map { $0.completion.scriptWord }, arguments.last?.isVariadic ?? false)
  }

  /// The words of `.choices`, else none.
  static func choiceWords(_ kind: CompletionKind) -> [String] {
    if case .choices(let words) = kind { return words }
    return []
  }

  // MARK: The shared tables (bash and zsh)

  /// `_yarn_child PATH WORD`: sets `_yarn_next` to the path WORD selects under PATH (by name
  /// or alias), or to nothing.
  private static func childFunction(_ paths: [[any ParsableCommand.Type]]) -> String {
    var out = "_yarn_child() {\n  case \"$1 $2\" in\n"
    for path in paths {
      for sub in CommandTree.visibleSubcommands(of: path[path.count - 1]) {
        let config = sub.configuration
        let patterns = ([config.name] + config.aliases).map {
          quoted(CommandTree.words(path) + " " + $0)
        }
        out +=
          "    \(patterns.joined(separator: "|"))) _yarn_next=\(quoted(CommandTree.words(path + [sub]))) ;;\n"
      }
    }
    out += "    *) _yarn_next='' ;;\n  esac\n}\n"
    return out
  }

  /// `_yarn_value_kind PATH OPTION`: sets `_yarn_kind` to what OPTION's value names and
  /// `_yarn_choices` to its words (`none` for free text: nothing to offer).
  private static func valueKindFunction(_ paths: [[any ParsableCommand.Type]]) -> String {
    var out = "_yarn_value_kind() {\n  _yarn_choices=''\n  case \"$1 $2\" in\n"
    for path in paths {
      for option in CommandTree.options(of: path)
      where CommandTree.takesValue(option) && option.completion != .none {
        let patterns = CommandTree.spellings(of: option).map {
          quoted(CommandTree.words(path) + " " + $0)
        }
        out += "    \(patterns.joined(separator: "|"))) _yarn_kind=\(option.completion.scriptWord)"
        let words = choiceWords(option.completion)
        if !words.isEmpty { out += "; _yarn_choices=\(quoted(words.joined(separator: " ")))" }
        out += " ;;\n"
      }
    }
    out += "    *) _yarn_kind=none ;;\n  esac\n}\n"
    return out
  }

  // MARK: bash

  private static func bash(root: any ParsableCommand.Type) -> String {
    let paths = CommandTree.paths(from: root)
    var out = """
      # bash completion for yarn, written by `yarn completions bash` (yarn \(YarnTool.version)).
      # Install: save it as ~/.local/share/bash-completion/completions/yarn (or source it
      # from ~/.bashrc). Project and yarn names come from `yarn __complete`.

      # _yarn_spec PATH: sets _yarn_subs (the subcommands' names), _yarn_opts (every option),
      # _yarn_valued (the options that take a value), _yarn_args (what each positional
      # argument names) and _yarn_variadic (1 when the last takes every remaining word).
      _yarn_spec() {
        _yarn_subs='' _yarn_opts='' _yarn_valued='' _yarn_args=() _yarn_variadic=''
        case "$1" in

      """
    for path in paths {
      let command = path[path.count - 1]
      let options = CommandTree.options(of: path)
      out += "    \(quoted(CommandTree.words(path))))\n"
      let subs = CommandTree.visibleSubcommands(of: command).map { $0.configuration.name }
      if !subs.isEmpty { out += "      _yarn_subs=\(quoted(subs.joined(separator: " ")))\n" }
      out += "      _yarn_opts=\(quoted(options.flatMap(CommandTree.spellings).joined(separator: " ")))\n"
      let valued = options.filter(CommandTree.takesValue).flatMap(CommandTree.spellings)
      out += "      _yarn_valued=\(quoted(valued.joined(separator: " ")))\n"
      let (kinds, variadic) = argumentKinds(command)
      if !kinds.isEmpty { out += "      _yarn_args=(\(kinds.joined(separator: " ")))\n" }
      if variadic { out += "      _yarn_variadic=1\n" }
      out += "      ;;\n"
    }
    out += "  esac\n}\n\n"
    out += childFunction(paths) + "\n" + valueKindFunction(paths) + "\n"
    out += #"""
      # _yarn_escape WORD: WORD with the characters the shell reads specially escaped, as
      # it is inserted into the line (after an opening quote, only what that quote needs).
      _yarn_escape() {
        local word=$1 out='' c i
        case $2 in
          \'*) printf '%s' "${word//\'/\'\\\'\'}"; return ;;
          \"*) word=${word//\\/\\\\}; word=${word//\"/\\\"}; word=${word//\$/\\\$}
               printf '%s' "${word//\`/\\\`}"; return ;;
        esac
        for (( i = 0; i < ${#word}; i++ )); do
          c=${word:i:1}
          case $c in
            [\ \'\"\\\$\`\(\)\[\]\{\}\;\&\|\<\>\*\?\!\#\~\^]) out+="\\$c" ;;
            *) out+=$c ;;
          esac
        done
        printf '%s' "$out"
      }

      # _yarn_dequote WORD: WORD as the shell reads it, its quotes and escapes removed: in
      # '...' none; in "..." a backslash escapes only " \ $ and `; outside, any character.
      _yarn_dequote() {
        local word=$1 out='' quote='' c i
        for (( i = 0; i < ${#word}; i++ )); do
          c=${word:i:1}
          if [[ $quote == \' ]]; then
            [[ $c == \' ]] && quote='' || out+=$c
          elif [[ $c == \\ ]]; then
            (( ++i )); c=${word:i:1}
            [[ $quote == \" && $c != [\"\\\$\`] ]] && out+=\\
            out+=$c
          elif [[ $c == [\'\"] && ( -z $quote || $c == "$quote" ) ]]; then
            [[ -n $quote ]] && quote='' || quote=$c
          else
            out+=$c
          fi
        done
        printf '%s' "$out"
      }

      # _yarn_complete_value KIND CUR: adds to COMPREPLY the values of KIND that begin
      # with CUR.
      _yarn_complete_value() {
        local kind=$1 cur=$2 line yarn=${COMP_WORDS[0]}
        case $kind in
          project|yarn)
            [[ $yarn == '~/'* ]] && yarn=$HOME/${yarn#'~/'}
            local command=("$yarn")
            [[ -n $_yarn_library ]] && command+=(--library "$_yarn_library")
            while IFS= read -r line; do
              COMPREPLY+=("$(_yarn_escape "$line" "$cur")")
            done < <("${command[@]}" __complete "${kind}s" -- "$(_yarn_dequote "$cur")" 2>/dev/null)
            # One name closes the quote opened before it: bash closes it only when the line
            # does not end with that quote already, as `Shelter \"Almanac\"` does.
            if (( ${#COMPREPLY[@]} == 1 )) && [[ $cur == [\'\"]* ]]; then COMPREPLY[0]+=${cur:0:1}; fi
            ;;
          file)
            compopt -o filenames 2>/dev/null
            while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
            ;;
          directory)
            compopt -o filenames 2>/dev/null
            while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -d -- "$cur")
            ;;
          choices)
            while IFS= read -r line; do COMPREPLY+=("$line"); done \
              < <(compgen -W "$_yarn_choices" -- "$cur")
            ;;
          command)
            # The subcommands under the command words given so far (`yarn help stash ...`).
            local under=yarn
            for line in "${_yarn_given[@]}"; do
              _yarn_child "$under" "$line"
              [[ -n $_yarn_next ]] || return 0
              under=$_yarn_next
            done
            _yarn_spec "$under"
            while IFS= read -r line; do COMPREPLY+=("$line"); done \
              < <(compgen -W "$_yarn_subs" -- "$cur")
            ;;
        esac
      }

      # _yarn_split: sets _yarn_words to COMP_WORDS up to the cursor, with a word that bash
      # split at its word breaks (COMP_WORDBREAKS: `Odd:\ c` is `Odd`, `:`, `\ c`; `Gift@M` is
      # `Gift`, `@`, `M`) joined again, and _yarn_cut to the start of the last word that bash
      # does not replace (`Odd:`; `Gift`, as readline replaces a `@` before the text too).
      _yarn_split() {
        local line=$COMP_LINE word i n breaks previous=''
        for (( i = 0; i <= COMP_CWORD; i++ )); do
          word=${COMP_WORDS[i]} n=${#_yarn_words[@]}
          # bash makes a word of the unquoted break characters in a row (`=`, `:=`), and
          # only of them: a word that starts with one, but for a quote, is one of those.
          breaks=''
          [[ -n $word && $word != [\"\']* && $COMP_WORDBREAKS == *"${word:0:1}"* ]] && breaks=1
          if (( n > 1 )) && [[ $line != [[:space:]]* && -n $breaks$previous ]]; then
            _yarn_words[n - 1]+=$word
          else
            _yarn_words+=("$word")
          fi
          previous=$breaks
          line=${line#"${line%%[![:space:]]*}"}
          line=${line#"$word"}
        done
        n=${#_yarn_words[@]}
        if [[ -n $breaks ]]; then
          _yarn_cut=${_yarn_words[n - 1]}
        else
          _yarn_cut=${_yarn_words[n - 1]%"$word"}
        fi
        _yarn_cut=${_yarn_cut%@}
      }

      # _yarn: the completions of the word at the cursor, read whole (_yarn_split), less the
      # start of it that bash keeps.
      _yarn() {
        local _yarn_words=() _yarn_cut reply replies=()
        _yarn_split
        COMPREPLY=()
        _yarn_complete
        [[ -n $_yarn_cut ]] || return 0
        for reply in "${COMPREPLY[@]}"; do
          [[ $reply == "$_yarn_cut"* ]] && replies+=("${reply#"$_yarn_cut"}")
        done
        COMPREPLY=("${replies[@]}")
        return 0
      }

      # _yarn_complete: adds to COMPREPLY the completions of the last of _yarn_words.
      _yarn_complete() {
        local last=$(( ${#_yarn_words[@]} - 1 )) at=yarn word i positional=0 pending='' only_args=''
        local cur=${_yarn_words[last]} _yarn_given=()
        local _yarn_subs _yarn_opts _yarn_valued _yarn_args _yarn_variadic _yarn_next
        local _yarn_kind _yarn_choices _yarn_library=${YARN_LIBRARY-}
        _yarn_spec "$at"
        for (( i = 1; i < last; i++ )); do
          word=${_yarn_words[i]}
          if [[ -n $pending ]]; then
            [[ $pending == --library ]] && _yarn_library=$(_yarn_dequote "$word")
            pending=''
            continue
          fi
          if [[ -z $only_args && $word == -- ]]; then only_args=1; continue; fi
          if [[ -z $only_args && $word == -* && $word != - && $word != -[0-9]* ]]; then
            if [[ $word == --*=* ]]; then
              [[ ${word%%=*} == --library ]] && _yarn_library=$(_yarn_dequote "${word#*=}")
            elif [[ " $_yarn_valued " == *" $word "* ]]; then
              pending=$word
            fi
            continue
          fi
          if [[ -z $only_args && -n $_yarn_subs ]]; then
            _yarn_child "$at" "$word"
            if [[ -n $_yarn_next ]]; then
              at=$_yarn_next
              _yarn_spec "$at"
            fi
            continue
          fi
          _yarn_given+=("$word")
          (( positional++ ))
        done

        # The value of an option: after `--option`, or in `--option=...`.
        local prefix=''
        if [[ -z $pending && -z $only_args && $cur == --*=* ]]; then
          pending=${cur%%=*} prefix="${cur%%=*}="
          cur=${cur#*=}
        fi
        if [[ -n $pending ]]; then
          _yarn_value_kind "$at" "$pending"
          _yarn_complete_value "$_yarn_kind" "$cur"
          if [[ -n $prefix ]]; then COMPREPLY=("${COMPREPLY[@]/#/$prefix}"); fi
          return 0
        fi
        if [[ -z $only_args && $cur == -* ]]; then
          while IFS= read -r word; do COMPREPLY+=("$word"); done \
            < <(compgen -W "$_yarn_opts" -- "$cur")
          return 0
        fi
        if [[ -z $only_args && -n $_yarn_subs ]]; then
          while IFS= read -r word; do COMPREPLY+=("$word"); done \
            < <(compgen -W "$_yarn_subs" -- "$cur")
          return 0
        fi
        local count=${#_yarn_args[@]}
        if (( positional >= count )) && [[ -n $_yarn_variadic ]]; then positional=$(( count - 1 )); fi
        if (( positional < count )); then
          _yarn_kind=${_yarn_args[positional]}
          _yarn_choices=$(_yarn_argument_choices "$at" "$positional")
          _yarn_complete_value "$_yarn_kind" "$cur"
        fi
        return 0
      }

      """#
    out += argumentChoicesFunction(paths, shell: .bash)
    out += "\ncomplete -F _yarn yarn\n"
    return out
  }

  /// `_yarn_argument_choices PATH INDEX`: prints the words of a positional argument of fixed
  /// choices.
  private static func argumentChoicesFunction(
    _ paths: [[any ParsableCommand.Type]], shell: Shell
  ) -> String {
    var out = "\n_yarn_argument_choices() {\n  case \"$1 $2\" in\n"
    for path in paths {
      for (index, argument) in path[path.count - 1].configuration.arguments.enumerated() {
        let words = choiceWords(argument.completion)
        guard !words.isEmpty else { continue }
        out += "    \(quoted("\(CommandTree.words(path)) \(index)"))) printf '%s' "
        out += "\(quoted(words.joined(separator: " "))) ;;\n"
      }
    }
    out += "  esac\n}\n"
    return out
  }

  // MARK: zsh

  private static func zsh(root: any ParsableCommand.Type) -> String {
    let paths = CommandTree.paths(from: root)
    func described(_ name: String, _ help: String) -> String {
      quoted(name.replacing(":", with: "\\:") + ":" + help)
    }
    var out = """
      #compdef yarn
      # zsh completion for yarn, written by `yarn completions zsh` (yarn \(YarnTool.version)).
      # Install: save it as _yarn in a directory of $fpath (before compinit runs). Project
      # and yarn names come from `yarn __complete`.

      # _yarn_spec PATH: sets _yarn_subs (the subcommands, name:summary), _yarn_opts (every
      # option, spelling:help), _yarn_valued (the options that take a value), _yarn_args (what
      # each positional argument names) and _yarn_variadic (1 when the last takes every
      # remaining word).
      _yarn_spec() {
        _yarn_subs=() _yarn_opts=() _yarn_valued='' _yarn_args=() _yarn_variadic=''
        case "$1" in

      """
    for path in paths {
      let command = path[path.count - 1]
      let options = CommandTree.options(of: path)
      out += "    \(quoted(CommandTree.words(path))))\n"
      let subs = CommandTree.visibleSubcommands(of: command).map {
        described($0.configuration.name, $0.configuration.abstract)
      }
      if !subs.isEmpty {
        out += "      _yarn_subs=(\n        \(subs.joined(separator: "\n        "))\n      )\n"
      }
      let described = options.flatMap { option in
        CommandTree.spellings(of: option).map { described($0, option.help) }
      }
      out += "      _yarn_opts=(\n        \(described.joined(separator: "\n        "))\n      )\n"
      let valued = options.filter(CommandTree.takesValue).flatMap(CommandTree.spellings)
      out += "      _yarn_valued=\(quoted(valued.joined(separator: " ")))\n"
      let (kinds, variadic) = argumentKinds(command)
      if !kinds.isEmpty { out += "      _yarn_args=(\(kinds.joined(separator: " ")))\n" }
      if variadic { out += "      _yarn_variadic=1\n" }
      out += "      ;;\n"
    }
    out += "  esac\n}\n\n"
    out += childFunction(paths) + "\n" + valueKindFunction(paths)
    out += argumentChoicesFunction(paths, shell: .zsh)
    out += #"""

      # _yarn_complete_value KIND: offers the values of KIND.
      _yarn_complete_value() {
        local kind=$1
        case $kind in
          project|yarn)
            local -a command names
            command=(${~words[1]})
            [[ -n $_yarn_library ]] && command+=(--library "$_yarn_library")
            names=("${(@f)$("${command[@]}" __complete "${kind}s" 2>/dev/null)}")
            names=(${names:#})
            (( ${#names} )) && compadd -a names
            ;;
          file) _files ;;
          directory) _files -/ ;;
          choices) compadd -- ${=_yarn_choices} ;;
          command)
            # The subcommands under the command words given so far (`yarn help stash ...`).
            local under=yarn given
            for given in "${_yarn_given[@]}"; do
              _yarn_child "$under" "$given"
              [[ -n $_yarn_next ]] || return 0
              under=$_yarn_next
            done
            _yarn_spec "$under"
            _describe -t commands command _yarn_subs
            ;;
        esac
      }

      _yarn() {
        local at=yarn word i positional=0 pending='' only_args=''
        local -a _yarn_given
        local -a _yarn_subs _yarn_opts _yarn_args
        local _yarn_valued _yarn_variadic _yarn_next _yarn_kind _yarn_choices
        local _yarn_library=${YARN_LIBRARY-}
        _yarn_spec "$at"
        for (( i = 2; i < CURRENT; i++ )); do
          word=${words[i]}
          if [[ -n $pending ]]; then
            [[ $pending == --library ]] && _yarn_library=${(Q)word}
            pending=''
            continue
          fi
          if [[ -z $only_args && $word == -- ]]; then only_args=1; continue; fi
          if [[ -z $only_args && $word == -* && $word != - && $word != -[0-9]* ]]; then
            if [[ $word == --*=* ]]; then
              [[ ${word%%=*} == --library ]] && _yarn_library=${(Q)${word#*=}}
            elif [[ " $_yarn_valued " == *" $word "* ]]; then
              pending=$word
            fi
            continue
          fi
          if [[ -z $only_args && ${#_yarn_subs} -gt 0 ]]; then
            _yarn_child "$at" "$word"
            if [[ -n $_yarn_next ]]; then
              at=$_yarn_next
              _yarn_spec "$at"
            fi
            continue
          fi
          _yarn_given+=("$word")
          (( positional++ ))
        done

        local cur=${words[CURRENT]}
        if [[ -z $pending && -z $only_args && $cur == --*=* ]]; then
          pending=${cur%%=*}
          compset -P '*='
        fi
        if [[ -n $pending ]]; then
          _yarn_value_kind "$at" "$pending"
          _yarn_complete_value "$_yarn_kind"
          return
        fi
        if [[ -z $only_args && $cur == -* ]]; then
          _describe -t options option _yarn_opts
          return
        fi
        if [[ -z $only_args && ${#_yarn_subs} -gt 0 ]]; then
          _describe -t commands command _yarn_subs
          return
        fi
        local count=${#_yarn_args}
        if (( positional >= count )) && [[ -n $_yarn_variadic ]]; then positional=$(( count - 1 )); fi
        if (( positional < count )); then
          _yarn_kind=${_yarn_args[positional + 1]}
          _yarn_choices=$(_yarn_argument_choices "$at" "$positional")
          _yarn_complete_value "$_yarn_kind"
        fi
      }

      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _yarn "$@"
      else
        compdef _yarn yarn
      fi

      """#
    return out
  }

  // MARK: fish

  private static func fish(root: any ParsableCommand.Type) -> String {
    let paths = CommandTree.paths(from: root)
    var out = """
      # fish completion for yarn, written by `yarn completions fish` (yarn \(YarnTool.version)).
      # Install: save it as ~/.config/fish/completions/yarn.fish. Project and yarn names come
      # from `yarn __complete`.

      # __yarn_spec PATH: sets __yarn_valued (the options that take a value) and __yarn_subs
      # (the subcommands' names and aliases, name=path).
      function __yarn_spec
          set -g __yarn_valued
          set -g __yarn_subs
          switch $argv[1]

      """
    for path in paths {
      let command = path[path.count - 1]
      let options = CommandTree.options(of: path)
      out += "        case \(fishQuoted(CommandTree.words(path)))\n"
      let valued = options.filter(CommandTree.takesValue).flatMap(CommandTree.spellings)
      if !valued.isEmpty {
        out += "            set -g __yarn_valued \(valued.map(fishQuoted).joined(separator: " "))\n"
      }
      var subs: [String] = []
      for sub in CommandTree.visibleSubcommands(of: command) {
        let config = sub.configuration
        for word in [config.name] + config.aliases {
          subs.append(fishQuoted("\(word)=\(config.name)"))
        }
      }
      if !subs.isEmpty { out += "            set -g __yarn_subs \(subs.joined(separator: " "))\n" }
    }
    out += #"""
          end
      end

      # __yarn_state: reads the words before the cursor and sets __yarn_path (such as
      # `yarn stash add`), __yarn_positional (how many arguments were given), __yarn_pending
      # (the option whose value is at the cursor) and __yarn_library (a --library given).
      function __yarn_state
          # Every `complete` line's condition asks: read the line once per state of it.
          set -l line (commandline -cp) (commandline -opc)
          if set -q __yarn_read_line; and test "$__yarn_read_line" = "$line"
              return
          end
          set -g __yarn_read_line $line
          set -l words (commandline -opc)
          set -g __yarn_path yarn
          set -g __yarn_positional 0
          set -g __yarn_given
          set -g __yarn_pending
          set -g __yarn_library $YARN_LIBRARY
          set -l only_args
          set -e words[1]
          __yarn_spec $__yarn_path
          for word in $words
              if test -n "$__yarn_pending"
                  test "$__yarn_pending" = --library; and set -g __yarn_library $word
                  set -g __yarn_pending
                  continue
              end
              if test -z "$only_args"; and test "$word" = --
                  set only_args 1
                  continue
              end
              if test -z "$only_args"; and string match -qr -- '^-[^0-9]' $word
                  if string match -q -- '--*=*' $word
                      set -l parts (string split -m 1 = -- $word)
                      test "$parts[1]" = --library; and set -g __yarn_library $parts[2]
                  else if contains -- $word $__yarn_valued
                      set -g __yarn_pending $word
                  end
                  continue
              end
              if test -z "$only_args"; and test (count $__yarn_subs) -gt 0
                  for sub in $__yarn_subs
                      set -l pair (string split -m 1 = -- $sub)
                      if test "$pair[1]" = "$word"
                          set -g __yarn_path "$__yarn_path $pair[2]"
                          __yarn_spec $__yarn_path
                          break
                      end
                  end
                  continue
              end
              set -a __yarn_given $word
              set -g __yarn_positional (math $__yarn_positional + 1)
          end
      end

      # __yarn_at PATH: whether the words before the cursor select the command PATH.
      function __yarn_at
          __yarn_state
          test "$__yarn_path" = "$argv[1]"
      end

      # __yarn_word PATH: whether a subcommand or argument of PATH is at the cursor.
      function __yarn_word
          __yarn_at $argv[1]; and test -z "$__yarn_pending"
      end

      # __yarn_arg PATH INDEX [variadic]: whether positional argument INDEX (from 0) of the
      # command PATH is at the cursor; a variadic one takes every later word too.
      function __yarn_arg
          __yarn_word $argv[1]; or return 1
          if test (count $argv) -ge 3
              test $__yarn_positional -ge $argv[2]
          else
              test $__yarn_positional -eq $argv[2]
          end
      end

      # __yarn_commands: the subcommands under the command words given so far
      # (`yarn help stash ...`), one a line.
      function __yarn_commands
          set -l under yarn
          for word in $__yarn_given
              __yarn_spec $under
              set -l next
              for sub in $__yarn_subs
                  set -l pair (string split -m 1 = -- $sub)
                  test "$pair[1]" = "$word"; and set next $pair[2]
              end
              test -n "$next"; or return
              set under "$under $next"
          end
          __yarn_spec $under
          for sub in $__yarn_subs
              set -l pair (string split -m 1 = -- $sub)
              test "$pair[1]" = "$pair[2]"; and echo $pair[1]
          end
      end

      # __yarn_names projects|yarns: the names in the library, one a line.
      function __yarn_names
          set -l command (commandline -opc)[1]
          test -n "$__yarn_library"; and set -a command --library $__yarn_library
          $command __complete $argv[1] 2>/dev/null
      end

      complete -c yarn -f

      """#
    for path in paths {
      let command = path[path.count - 1]
      let words = CommandTree.words(path)
      let condition = fishQuoted("__yarn_at \(fishQuoted(words))")
      for sub in CommandTree.visibleSubcommands(of: command) {
        let config = sub.configuration
        out += "complete -c yarn -n \(fishQuoted("__yarn_word \(fishQuoted(words))"))"
        out += " -a \(fishQuoted(config.name)) -d \(fishQuoted(config.abstract))\n"
      }
      for option in CommandTree.options(of: path) {
        out += "complete -c yarn -n \(condition) -l \(option.name)"
        if let short = option.short { out += " -s \(short)" }
        if CommandTree.takesValue(option) { out += fishValue(option.completion) }
        out += " -d \(fishQuoted(option.help))\n"
      }
      let arguments = command.configuration.arguments
      for (index, argument) in arguments.enumerated() where argument.completion != .none {
        let variadic = argument.isVariadic ? " variadic" : ""
        out += "complete -c yarn -n "
        out += fishQuoted("__yarn_arg \(fishQuoted(words)) \(index)\(variadic)")
        out += fishValue(argument.completion) + " -d \(fishQuoted(argument.help))\n"
      }
    }
    return out
  }

  /// The `complete` flags that offer values of `kind`.
  private static func fishValue(_ kind: CompletionKind) -> String {
    switch kind {
    case .none: " -x"
    case .project: " -x -a " + fishQuoted("(__yarn_names projects)")
    case .yarn: " -x -a " + fishQuoted("(__yarn_names yarns)")
    case .file: " -r -F"
    case .directory: " -x -a " + fishQuoted("(__fish_complete_directories)")
    case .command: " -x -a " + fishQuoted("(__yarn_commands)")
    case .choices(let words): " -x -a " + fishQuoted(words.joined(separator: " "))
    }
  }
}
