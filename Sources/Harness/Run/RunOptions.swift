import Corpus

/// The option values every lane shares, declared once in groups: the inputs, which cases run and
/// how many at once, where the reports go, and how the console talks. Each lane's `Options`
/// embeds one (`options.run`) beside what only that lane takes.
public struct RunOptions: Sendable {
    /// What to read.
    public struct Inputs: Sendable {
        /// Corpus folders, transcript files or recordings.
        public var paths: [String]
        /// The longest recording line, and the largest transcript, read (`--max-line`).
        public var maxLine = RecordingReader.defaultMaxLine
    }

    /// Which cases run, and how many at once.
    public struct Selection: Sendable {
        /// A glob over case ids (`--filter`).
        public var filter: String?
        /// This run's shard, 1-based, and the shard count (`--shard`).
        public var shard: (index: Int, count: Int) = (1, 1)
        /// Cases run at once (`--jobs`).
        public var jobs = 2
        /// Cases that must fail, or every case's expected outcome (`--known-failing`, `--expect`).
        public var knownFailing = Expectations()
    }

    /// How the run talks while it runs.
    public struct Console: Sendable {
        /// Colour the console text (`--color`).
        public var color = false
        /// Print the summary only (`--quiet`): no line per failing case, no progress line.
        public var quiet = false
        /// Keep a live progress line on standard error (the CLI sets it on a terminal).
        public var progress = false
        /// Accept a run in which no check ran (`--allow-empty`); else it is a setup error.
        public var allowEmpty = false

        /// Makes console settings.
        /// - Parameters:
        ///   - color: colour the text.
        ///   - quiet: the summary only.
        ///   - progress: a live progress line.
        ///   - allowEmpty: accept a run that checks nothing.
        public init(color: Bool = false, quiet: Bool = false, progress: Bool = false, allowEmpty: Bool = false) {
            self.color = color
            self.quiet = quiet
            self.progress = progress
            self.allowEmpty = allowEmpty
        }
    }

    /// What to read.
    public var inputs: Inputs
    /// Which cases run.
    public var selection = Selection()
    /// Where the reports go.
    public var reports = ReportPaths()
    /// How the console talks.
    public var console = Console()

    /// Makes options over some inputs, with every other value at its default.
    public init(paths: [String]) { self.inputs = Inputs(paths: paths) }

    /// Where the selected cases come from.
    package var source: CaseSource {
        CaseSource(paths: inputs.paths, maxLine: inputs.maxLine, filter: selection.filter, shard: selection.shard)
    }
}
