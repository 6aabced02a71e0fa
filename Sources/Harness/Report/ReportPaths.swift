/// Where a run writes its reports (`--junit`, `--json`, `--html`), each optional.
public struct ReportPaths: Sendable, Equatable {
    /// Where to write JUnit XML.
    public var junit: String?
    /// Where to write the JSON report.
    public var json: String?
    /// Where to write the HTML page.
    public var html: String?

    /// Makes report paths.
    /// - Parameters:
    ///   - junit: the JUnit XML path.
    ///   - json: the JSON report path.
    ///   - html: the HTML page path.
    public init(junit: String? = nil, json: String? = nil, html: String? = nil) {
        self.junit = junit
        self.json = json
        self.html = html
    }

    /// Whether any report file is written (a lane then keeps passing test cases for it).
    package var writesFiles: Bool { junit != nil || json != nil || html != nil }

    /// Refuses report paths that cannot be written or would clobber each other or an input;
    /// called before anything runs, so a bad path never costs a run.
    /// - Parameter inputs: the input paths.
    /// - Throws: `RunError` naming the path.
    package func check(inputs: [String]) throws(RunError) {
        if let junit, let json, FileSink.resolved(junit) == FileSink.resolved(json) {
            throw RunError.usage("--junit and --json name the same file \(junit); give each report its own path")
        }
        if let html, [junit, json].contains(where: { $0.map(FileSink.resolved) == FileSink.resolved(html) }) {
            throw RunError.usage("--html names the same file as another report (\(html)); give each report its own path")
        }
        let inputFiles = Set(inputs.map(FileSink.resolved))
        for path in [junit, json, html].compactMap({ $0 }) {
            try FileSink.checkWritable(path)
            if inputFiles.contains(FileSink.resolved(path)) {
                throw RunError.usage("report path \(path) is also an input; a report never overwrites what it checks")
            }
        }
    }
}
