import Foundation
import Testing

/// The CLI as data: help, usage, the man page and both completion scripts are drawn from the
/// same specs, so every option of every command appears in each; a typed value that does not
/// convert names its option; runtime failures are not usage errors.
@Suite("command-line specs")
struct CommandLineSpecTests {
    /// The subcommands the root help lists.
    private func subcommands() async throws -> [String] {
        let root = try await AccordBinary.run(["--help"])
        let lines = root.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "SUBCOMMANDS:"))
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 != "help" }
    }

    /// The long options a command's help lists under OPTIONS, without --help.
    private func options(inHelp help: String) throws -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "OPTIONS:"))
        return lines[(start + 1)...].filter { $0.hasPrefix("  --") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("every option of every command is in its help's usage line, its man page section and both completion scripts")
    func everyOptionEverywhere() async throws {
        let commands = try await subcommands()
        #expect(commands.contains("run") && commands.contains("man") && commands.contains("completions"))
        let man = try await AccordBinary.run(["man"])
        #expect(man.status == 0, "\(man.stderr)")
        let bash = try await AccordBinary.run(["completions", "bash"])
        let zsh = try await AccordBinary.run(["completions", "zsh"])
        #expect(bash.status == 0 && zsh.status == 0, "\(bash.stderr)\(zsh.stderr)")
        let bashLines = bash.stdout.split(separator: "\n").map(String.init)
        for command in commands {
            let help = try await AccordBinary.run(["help", command])
            #expect(help.status == 0, "\(command): \(help.stderr)")
            let usage = try #require(help.stdout.split(separator: "\n").first { $0.hasPrefix("USAGE: accord \(command)") })
            let section = try #require(man.stdout.components(separatedBy: ".SH \(command.uppercased())\n").dropFirst().first)
                .components(separatedBy: "\n.SH ")[0]
            let bashLine = try #require(bashLines.first { $0.hasPrefix("        \(command)) options=") }, "\(command) in bash")
            let bashWords = bashLine.components(separatedBy: "\"").dropFirst().first?.split(separator: " ").map(String.init) ?? []
            let zshBlock = try #require(zsh.stdout.components(separatedBy: "\n        \(command))\n").dropFirst().first)
                .components(separatedBy: "            ;;")[0]
            for option in try options(inHelp: help.stdout) {
                #expect(usage.contains("\(option) ") || usage.contains("\(option)]"), "\(command): \(option) not in \(usage)")
                #expect(section.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(command): \(option) not in the man page")
                #expect(bashWords.contains(option), "\(command): \(option) not in bash")
                #expect(zshBlock.contains("'\(option)[") || zshBlock.contains("'*\(option)["), "\(command): \(option) not in zsh")
            }
        }
        for heading in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH EXIT STATUS"] {
            #expect(man.stdout.contains("\n\(heading)\n"), "man page lacks \(heading)")
        }
    }

    @Test("accord run's help and usage list all of its options")
    func runListsEveryOption() async throws {
        let help = try await AccordBinary.run(["help", "run"])
        let usage = try #require(help.stdout.split(separator: "\n").first { $0.hasPrefix("USAGE: accord run") })
        let expected = [
            "server", "backend-token", "postgres-config", "client", "kill-matrix", "storage-faults", "timeout", "jwt-secret", "apikey",
            "scenarios",
            "known-failing",
            "expect", "tier", "filter", "shard", "jobs", "junit", "json", "html", "color", "quiet", "allow-empty", "max-line",
        ]
        #expect(try options(inHelp: help.stdout) == expected.map { "--" + $0 })
        for option in expected { #expect(usage.contains("--\(option)"), "usage lacks --\(option)") }
    }

    @Test(
        "a value that does not convert is a usage error naming the option, what it takes and what was found",
        arguments: [
            (["run", "--server", "embedded", "x", "--jobs", "many"], "--jobs takes a positive number, found 'many'"),
            (["run", "--server", "embedded", "x", "--shard", "3/2"], "--shard takes i/n with 1 ≤ i ≤ n, found '3/2'"),
            (["run", "--client", "accord driver", "x", "--timeout", "soon"], "--timeout takes seconds between 0 and 3600, found 'soon'"),
            (["run", "--server", "embedded", "x", "--tier", "gold"], "--tier takes pass or bound, found 'gold'"),
            (["convert", "a.jsonl", "b.json", "--to", "xml"], "--to takes recording, transcript or har, found 'xml'"),
        ])
    func conversionErrorNamesOption(arguments: [String], message: String) async throws {
        let result = try await AccordBinary.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("accord: error: \(message)\n"), "\(result.stderr)")
    }

    @Test("completions for an unknown shell is a usage error; an address that cannot be bound exits 69, not 64")
    func statuses() async throws {
        let fish = try await AccordBinary.run(["completions", "fish"])
        #expect(fish.status == 64, "\(fish.stderr)")
        #expect(fish.stderr.contains("bash or zsh"))
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: bind fails at run time.
        let serve = try await AccordBinary.run(["serve", "--listen", "192.0.2.1:0", "--jwt-secret", "s"])
        #expect(serve.status == 69, "\(serve.stderr)")
        #expect(serve.stderr.contains("cannot listen on"), "\(serve.stderr)")
    }

    @Test("accord record exits 69, not 64, when its listening address cannot be bound")
    func recordCannotListen() async throws {
        let out = NSTemporaryDirectory() + "accord-record-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let record = try await AccordBinary.run(["record", "--upstream", "http://127.0.0.1:9", "--out", out, "--listen", "192.0.2.1:0"])
        #expect(record.status == 69, "\(record.stderr)")
        #expect(record.stderr.contains("cannot listen"), "\(record.stderr)")
    }
}
