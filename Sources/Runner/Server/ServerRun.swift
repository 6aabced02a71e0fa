import Corpus
import Foundation
import Reports
import ServerContract

/// `accord run --server`: the server lane over corpus folders, transcripts and recordings, cases
/// in parallel on isolated targets (a recording replays on one fresh target, every session in recording order).
public struct ServerRun: Sendable {
    /// Makes a fresh, isolated target for one case.
    public typealias TargetFactory = @Sendable () throws(TargetError) -> any ServerTarget

    /// What to run and where to report.
    public struct Options: Sendable {
        /// Corpus folders, transcript files or recordings.
        public var paths: [String]
        /// The target's name for reports ("embedded" or a URL).
        public var targetName: String
        /// Per-case setup.
        public var scenarios: Scenarios
        /// Cases that must fail.
        public var knownFailing: Expectations
        /// A glob over case ids.
        public var filter: String?
        /// This run's shard, 1-based, and the shard count.
        public var shard: (index: Int, count: Int)
        /// Cases run at once.
        public var jobs: Int
        /// The tier a step must reach to pass.
        public var requiredTier: ResponseTier
        /// Where to write JUnit XML.
        public var junitPath: String?
        /// Where to write the JSON report.
        public var jsonPath: String?
        /// Where to write the HTML page (`--html`).
        public var htmlPath: String? = nil
        /// Whether the console summary uses colour.
        public var color: Bool
        /// The longest recording line, and the largest transcript, read (`--max-line`).
        public var maxLine = RecordingReader.defaultMaxLine
        /// Print the summary only: no line per failing case, no progress line (`--quiet`).
        public var quiet = false
        /// Keep a live progress line on standard error (the CLI sets it when that is a terminal).
        public var progress = false
        /// Accept a run in which no check ran (`--allow-empty`); else such a run is a setup error.
        public var allowEmpty = false

        /// Makes options.
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - targetName: the target's name.
        public init(paths: [String], targetName: String) {
            self.paths = paths
            self.targetName = targetName
            self.scenarios = Scenarios()
            self.knownFailing = Expectations()
            self.filter = nil
            self.shard = (1, 1)
            self.jobs = 2
            self.requiredTier = .bound
            self.junitPath = nil
            self.jsonPath = nil
            self.color = false
        }
    }

    /// Runs the lane.
    /// - Parameters:
    ///   - options: what to run.
    ///   - makeTarget: makes one isolated target per case.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report.
    public static func run(_ options: Options, makeTarget: @escaping TargetFactory, output: (String) -> Void) async throws(RunError) -> Bool
    {
        let lane = ServerLane(scenarios: options.scenarios, requiredTier: options.requiredTier)
        var run = LaneRun(
            paths: options.paths, filter: options.filter, shard: options.shard, jobs: options.jobs, knownFailing: options.knownFailing,
            junitPath: options.junitPath, jsonPath: options.jsonPath,
            console: LaneReport.Console(
                color: options.color, quiet: options.quiet, progress: options.progress, allowEmpty: options.allowEmpty),
            maxLine: options.maxLine, reportName: "accord run --server \(options.targetName)",
            properties: [
                SuiteResult.Property(name: "lane", value: "server"), SuiteResult.Property(name: "target", value: options.targetName),
                SuiteResult.Property(name: "accord_version", value: CheckRun.accordVersion),
            ],
            preflight: { () async throws(RunError) in try await preflight(makeTarget, name: options.targetName) })
        run.htmlPath = options.htmlPath
        let replay = RecordingReplay(requiredTier: options.requiredTier)
        return try await run.run(output: output) { loaded, properties in
            do throws(TargetError) {
                return await lane.run(loaded, on: try makeTarget(), properties: properties)
            } catch {
                return SuiteResult(
                    name: loaded.transcript.caseID, file: loaded.file, properties: properties,
                    cases: [
                        CaseResult(
                            name: "target", classname: CaseResult.classname(lane: "server", caseID: loaded.transcript.caseID),
                            outcome: .errored("\(error)"))
                    ])
            }
        } replay: { contents, file, properties in
            await replay.run(contents, file: file, makeTarget: makeTarget, properties: properties)
        }
    }

    /// A case to run, or a blocked manifest entry to report as skipped.
    struct LaneCase: Sendable {
        enum Kind: Sendable {
            case transcript(LoadedTranscript)
            case recording(RecordingContents, file: String)
            case blocked(Manifest.Entry)
        }
        var kind: Kind
        var id: String
        var decisions: [String: String]
    }

    /// Every case of the inputs, blocked entries included, before filtering and sharding.
    static func loadCases(_ paths: [String], maxLine: Int) throws(RunError) -> [LaneCase] {
        var loaded: [LaneCase] = []
        for path in paths {
            switch try CheckInput.classify(path) {
            case .corpus(let folder):
                let decisions = CorpusProvenance.read(FolderFiles(root: folder))
                do throws(CorpusError) {
                    for item in try Corpus(files: FolderFiles(root: folder, limit: maxLine)).cases {
                        switch item {
                        case .transcript(let transcript, _):
                            loaded.append(LaneCase(kind: .transcript(transcript), id: item.id, decisions: decisions))
                        case .blocked(let entry):
                            loaded.append(LaneCase(kind: .blocked(entry), id: item.id, decisions: decisions))
                        }
                    }
                } catch {
                    throw RunError.input(error)
                }
            case .transcript(let file):
                do throws(CorpusError) {
                    let transcript = try LoadedTranscript(raw: try FileBytes.read(file, limit: maxLine), file: file)
                    loaded.append(LaneCase(kind: .transcript(transcript), id: transcript.transcript.caseID, decisions: [:]))
                } catch {
                    throw RunError.input(error)
                }
            case .recording(let file):
                let contents = try RecordingFile.load(file, maxLine: maxLine)
                let id = (file as NSString).lastPathComponent
                loaded.append(LaneCase(kind: .recording(contents, file: file), id: id, decisions: [:]))
            }
        }
        return loaded
    }
}
