/// accord(1) in roff, drawn from the command specs: NAME, SYNOPSIS, DESCRIPTION, one section per
/// subcommand with every option, EXIT STATUS. `accord man` prints it.
enum ManPage {
    /// The page.
    /// - Parameters:
    ///   - commands: every subcommand.
    ///   - version: the version in the page's footer.
    /// - Returns: roff source.
    static func render(_ commands: [CommandSpec], version: String) -> String {
        var lines = [
            ".TH ACCORD 1 \"\" \"accord \(version)\" \"User Commands\"",
            ".SH NAME", "accord \\- " + escape(Accord.overview),
            ".SH SYNOPSIS",
        ]
        for command in commands {
            lines += [".B accord \(command.name)", escape(command.usage), ".br"]
        }
        lines += [
            ".SH DESCRIPTION",
            escape(
                "Accord is a conformance kit for the KizunaSync row-sync protocol: it checks recorded and golden traffic offline, plays the corpus against a server or a client build, records live traffic through a proxy, and writes JUnit XML, JSON and HTML reports."
            ),
        ]
        for command in commands {
            lines += [
                ".SH \(command.name.uppercased())", ".B accord \(command.name)", escape(command.usage), ".PP", escape(command.abstract),
            ]
            if let discussion = command.discussion { lines += [".PP", escape(discussion)] }
            for argument in command.arguments {
                lines += [".TP", ".I \(escape(argument.name))", escape(argument.help)]
            }
            for option in command.options {
                let value = option.valueName.map { " \\fI\(escape($0))\\fR" } ?? ""
                lines += [".TP", "\\fB\\-\\-\(escape(option.key.long))\\fR\(value)", escape(option.help)]
            }
        }
        lines += [".SH EXIT STATUS"]
        for (status, meaning) in ExitCode.documented {
            lines += [".TP", ".B \(status)", escape(meaning)]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe in roff: backslashes and dashes escaped, other than ASCII as `\[uXXXX]`, a
    /// leading dot or quote guarded.
    /// - Parameter text: plain text, one or more lines.
    /// - Returns: roff text.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var escaped = ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
                default:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }
}
