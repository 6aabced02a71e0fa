/// The name of an option, as a typed key: a command's spec lists its options by key and the
/// command reads their values by key, so a misspelt name does not compile. A command adds its
/// own keys in an extension beside it (`extension OptionKey { static let subject = … }`).
struct OptionKey: Hashable, Sendable, CustomStringConvertible {
    /// The long name without dashes, e.g. "junit".
    let long: String

    /// Makes a key; the name is lower-case words joined by dashes.
    init(_ long: String) { self.long = long }

    /// The option as typed: "--junit".
    var description: String { "--" + long }
}

extension OptionKey {
    // Inputs and their limits.
    static let maxLine = OptionKey("max-line")
    static let scenarios = OptionKey("scenarios")
    static let corpus = OptionKey("corpus")
    static let domain = OptionKey("domain")
    // Targets.
    static let server = OptionKey("server")
    static let postgresConfig = OptionKey("postgres-config")
    static let client = OptionKey("client")
    static let killMatrix = OptionKey("kill-matrix")
    static let storageFaults = OptionKey("storage-faults")
    static let timeout = OptionKey("timeout")
    static let jwtSecret = OptionKey("jwt-secret")
    static let apikey = OptionKey("apikey")
    static let backendToken = OptionKey("backend-token")
    static let tier = OptionKey("tier")
    static let profile = OptionKey("profile")
    // Selection and scheduling.
    static let knownFailing = OptionKey("known-failing")
    static let expect = OptionKey("expect")
    static let filter = OptionKey("filter")
    static let shard = OptionKey("shard")
    static let jobs = OptionKey("jobs")
    // Reports and console.
    static let junit = OptionKey("junit")
    static let json = OptionKey("json")
    static let html = OptionKey("html")
    static let color = OptionKey("color")
    static let quiet = OptionKey("quiet")
    static let allowEmpty = OptionKey("allow-empty")
    static let markdown = OptionKey("markdown")
    // Serving and recording.
    static let listen = OptionKey("listen")
    static let db = OptionKey("db")
    static let fixtures = OptionKey("fixtures")
    static let upstream = OptionKey("upstream")
    static let out = OptionKey("out")
    static let redact = OptionKey("redact")
    static let keep = OptionKey("keep")
    static let loops = OptionKey("loops")
    static let upstreamTimeout = OptionKey("upstream-timeout")
    static let upstreamCA = OptionKey("upstream-ca")
    static let bufferBudget = OptionKey("buffer-budget")
    // Conversion, the driver, the database.
    static let from = OptionKey("from")
    static let to = OptionKey("to")
    static let caseID = OptionKey("case")
    static let fault = OptionKey("fault")
    static let markerOnly = OptionKey("marker-only")
}
