import AccordVersion
import Capture
import Corpus
import Harness
import Lanes
import PowerSyncWire

enum ConvertCommand: Command {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert between recordings, transcripts and HAR 1.2 files.",
        discussion: """
            Formats come from the file extensions (.jsonl/.ndjson recording, .json transcript, .har HAR) or
            from --from and --to. recording -> transcript keeps the pull and push exchanges as rpc steps,
            with the context of the first client session and a server configuration inferred from the
            requests; transcript -> recording keeps the rpc steps, numbered by step. HAR entries carry the
            JSON bodies as text; credentials in HAR headers are redacted on the way in and never added.
            docs/replay.md has the details. Exit status: 0 on success, 64 for a usage or input error.
            """,
        arguments: [
            CommandSpec.Argument(name: "in", help: "The input file."),
            CommandSpec.Argument(name: "out", help: "The output file (written whole, then renamed into place)."),
        ],
        options: [
            OptionSpec(.from, value: "format", help: "The input format: recording, transcript or har."),
            OptionSpec(.to, value: "format", help: "The output format: recording, transcript or har."),
            OptionSpec(
                .caseID, value: "id",
                help:
                    "The case id of a transcript written (default: lifecycle/001-recording-<name of out>; powersync/001-recording-<name of out> for a PowerSync recording)."
            ),
            SharedOptions.maxLine,
        ])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard arguments.positionals.count == 2 else {
            throw RunError.usage(
                "accord convert takes <in> and <out>, found \(arguments.positionals.count) path(s)\nSee 'accord help convert'.")
        }
        let input = arguments.positionals[0]
        let output = arguments.positionals[1]
        let from = try format(arguments, .from, path: input)
        let to = try format(arguments, .to, path: output)
        if FileSink.resolved(input) == FileSink.resolved(output) {
            throw RunError.usage("<in> and <out> name the same file \(input); convert never overwrites its input")
        }
        let caseID = arguments.value(.caseID) ?? RecordingToTranscript.caseID(for: output)
        if !Transcript.isCaseID(caseID) && !PowerSync.Transcript.isCaseID(caseID) {
            throw RunError.usage("--case takes <flow>/<NNN>-<slug> (or powersync/<NNN>-<slug>), found '\(caseID)'")
        }
        let maxLine = try SharedOptions.maxLine(arguments)
        let tool = "accord \(AccordVersion.number)"
        let converted: FormatConversion.Output
        // A recording is read line by line (each under --max-line); a transcript or HAR file is
        // one JSON document, read whole up to --max-line.
        let recording = from == .recording ? try RecordingFile.load(input, maxLine: maxLine) : nil
        do throws(CorpusError) {
            if let recording {
                converted = try FormatConversion.convert(
                    recording, file: input, to: to, tool: tool, caseID: caseID, world: RecordingReplay.world(of:))
            } else {
                converted = try FormatConversion.convert(
                    try FileBytes.read(input, limit: maxLine), file: input, from: from, to: to, tool: tool, caseID: caseID)
            }
        } catch {
            throw RunError.input(error)
        }
        try RecordingFile.write(converted.bytes, to: output)
        for note in converted.notes { console.help("accord: note: \(note)\n") }
        console.out("wrote \(output) (\(to.rawValue) from \(from.rawValue))")
        return ExitCode.success
    }

    static func format(_ arguments: ParsedArguments, _ option: OptionKey, path: String) throws -> FormatConversion.Format {
        if let format = try arguments.value(option, as: OptionConversion<FormatConversion.Format>.choice()) { return format }
        guard let format = FormatConversion.Format.of(path: path) else {
            throw RunError.usage("\(path): cannot tell the format from the extension; pass \(option) recording|transcript|har")
        }
        return format
    }
}
