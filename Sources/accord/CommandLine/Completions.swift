/// Shell completion scripts drawn from the command specs: every subcommand and every option of
/// each. `accord completions bash|zsh` prints one.
enum Completions {
    /// The shells a script is written for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh
    }

    /// The script for `shell`.
    /// - Parameters:
    ///   - shell: bash or zsh.
    ///   - commands: every subcommand.
    /// - Returns: the script's text.
    static func script(_ shell: Shell, commands: [CommandSpec]) -> String {
        switch shell {
        case .bash: bash(commands)
        case .zsh: zsh(commands)
        }
    }

    private static func bash(_ commands: [CommandSpec]) -> String {
        let names = (commands.map(\.name) + ["help"]).joined(separator: " ")
        var lines = [
            "# bash completion for accord; source it, or install it as /usr/share/bash-completion/completions/accord",
            "_accord() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\"",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        COMPREPLY=($(compgen -W \"\(names) --help --version\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    local options",
            "    case \"${COMP_WORDS[1]}\" in",
        ]
        for command in commands {
            let options = (command.options.map(\.key.description) + ["--help"]).joined(separator: " ")
            lines.append("        \(command.name)) options=\"\(options)\" ;;")
        }
        lines += [
            "        help) COMPREPLY=($(compgen -W \"\(names)\" -- \"$cur\")); return ;;",
            "        *) options=\"\" ;;",
            "    esac",
            "    if [[ \"$cur\" == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -f -- \"$cur\"))",
            "    fi",
            "}",
            "complete -o filenames -F _accord accord",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func zsh(_ commands: [CommandSpec]) -> String {
        var lines = [
            "#compdef accord", "# zsh completion for accord; install it as _accord on $fpath", "", "_accord() {", "    local -a commands",
            "    commands=(",
        ]
        for command in commands { lines.append("        '\(command.name):\(quoted(command.abstract))'") }
        lines += [
            "        'help:Show subcommand help information.'", "    )",
            "    if (( CURRENT == 2 )); then", "        _describe 'accord subcommand' commands", "        return", "    fi",
            "    case $words[2] in",
        ]
        for command in commands {
            lines.append("        \(command.name))")
            lines.append("            _arguments \\")
            for option in command.options {
                let value = option.valueName.map { ":\($0):_files" } ?? ""
                let repeated = option.isRepeatable ? "*" : ""
                lines.append("                '\(repeated)\(option.key)[\(quoted(bracketed(option.help)))]\(value)' \\")
            }
            lines.append("                '(-h --help)'{-h,--help}'[Show help information.]' \\")
            lines.append("                '*:file:_files'")
            lines.append("            ;;")
        }
        lines += ["        help) _describe 'accord subcommand' commands ;;", "    esac", "}", "", "_accord \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text inside a single-quoted zsh word.
    private static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "'\\''") }

    /// Text inside an `_arguments` description, where brackets and colons end the field.
    private static func bracketed(_ text: String) -> String {
        text.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")").replacingOccurrences(of: ":", with: " -")
    }
}
