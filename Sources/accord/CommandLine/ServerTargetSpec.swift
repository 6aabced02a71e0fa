import Harness
import Lanes

/// `--server <target>`, read once (issue 38): which kind of server the value names, its form
/// checked here so every later step switches on the kind instead of re-reading the text.
enum ServerTargetSpec: Sendable, Equatable, CustomStringConvertible {
    /// Accord's reference server (and PowerSync service), one per case, in process.
    case embedded
    /// A server behind an http(s) URL with the fixture endpoint (or a PowerSync service).
    case http(String)
    /// A PostgreSQL database with the KizunaSync pack (a postgres:// or postgresql:// URL).
    case postgres(String)
    /// A PowerSync app's custom checkpoint backend: the http(s) URL after the prefix.
    case checkpointBackend(String)

    /// The prefix of a checkpoint backend's value.
    static let checkpointBackendPrefix = "checkpoint-backend+"

    /// Reads a `--server` value.
    /// - Throws: `RunError.usage` naming the forms it takes.
    init(parsing value: String) throws(RunError) {
        if value == "embedded" {
            self = .embedded
        } else if value.hasPrefix(Self.checkpointBackendPrefix) {
            let url = String(value.dropFirst(Self.checkpointBackendPrefix.count))
            guard Self.isHTTP(url) else {
                throw RunError.usage("--server \(Self.checkpointBackendPrefix)<URL> takes an http(s) URL, found '\(url)'")
            }
            self = .checkpointBackend(url)
        } else if Self.isHTTP(value) {
            self = .http(value)
        } else if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            self = .postgres(value)
        } else {
            throw RunError.usage(
                "--server takes 'embedded', an http(s) URL or a postgres:// URL, found '\(value)'\nSee 'accord help run'.")
        }
    }

    /// True for one shared server, so cases take turns (each seed resets it).
    var isShared: Bool { self != .embedded }

    /// The value as given.
    var description: String {
        switch self {
        case .embedded: "embedded"
        case .http(let url), .postgres(let url): url
        case .checkpointBackend(let url): Self.checkpointBackendPrefix + url
        }
    }

    private static func isHTTP(_ text: String) -> Bool { text.hasPrefix("http://") || text.hasPrefix("https://") }
}
