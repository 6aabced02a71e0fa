import JSON

/// A whole recording held in memory: its header, its complete exchanges and the torn last line
/// if there was one. Replay and conversion need every exchange at once (sessions are grouped,
/// files are rewritten); `accord check` streams instead.
public struct RecordingContents: Sendable, Hashable {
    /// The header line.
    public var header: RecordingHeader
    /// The complete exchanges, in recording order.
    public var exchanges: [RecordedExchange]
    /// The torn last line's number, when the recording was cut mid-write.
    public var tornLine: Int?

    /// Makes a recording from parts.
    /// - Parameters:
    ///   - header: the header.
    ///   - exchanges: the exchanges, numbers increasing.
    ///   - tornLine: the torn line, if any.
    public init(header: RecordingHeader, exchanges: [RecordedExchange], tornLine: Int? = nil) {
        self.header = header
        self.exchanges = exchanges
        self.tornLine = tornLine
    }

    /// Reads a recording from its bytes with the strict `RecordingReader`.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - file: the file name, for messages.
    /// - Throws: `CorpusError` naming the file and line of the first bad line.
    public init(bytes: [UInt8], file: String) throws(CorpusError) {
        var reader = RecordingReader(file: file)
        var header: RecordingHeader?
        var exchanges: [RecordedExchange] = []
        func take(_ item: RecordingReader.Item) {
            switch item {
            case .header(let read): header = read
            case .exchange(let exchange): exchanges.append(exchange)
            }
        }
        try bytes.withUnsafeBufferPointer { buffer throws(CorpusError) in
            try reader.feed(buffer) { item throws(CorpusError) in take(item) }
        }
        try reader.finish { item throws(CorpusError) in take(item) }
        guard let header else { throw CorpusError.empty(file, "no recording header line (is this an accord recording?)") }
        self.init(header: header, exchanges: exchanges, tornLine: reader.tornLine)
    }

    /// The recording as JSON Lines: the header, then one compact line per exchange, each
    /// ending in a newline (the torn line, if any, is not written back).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        CanonicalJSON.writeCompact(header.json, into: &out)
        out.append(0x0A)
        for exchange in exchanges {
            CanonicalJSON.writeCompact(exchange.json, into: &out)
            out.append(0x0A)
        }
        return out
    }

    /// The client sessions in the order of their first exchange.
    public var sessions: [RecordedSession] {
        var seen = Set<RecordedSession>()
        var ordered: [RecordedSession] = []
        for exchange in exchanges where exchange.rpc != "http" {
            let session = RecordedSession(of: exchange)
            if seen.insert(session).inserted { ordered.append(session) }
        }
        return ordered
    }
}

/// Who made a recorded exchange: the user (JWT `sub`) and the client (request `client_id`,
/// else the JWT `session_id`), both unverified and either possibly unknown.
public struct RecordedSession: Sendable, Hashable, CustomStringConvertible {
    /// The user id, when recorded.
    public var user: String?
    /// The client id, when recorded or named by the request body.
    public var client: String?

    /// Makes a session identity.
    public init(user: String?, client: String?) {
        self.user = user
        self.client = client
    }

    /// The session an exchange belongs to.
    public init(of exchange: RecordedExchange) {
        self.user = exchange.user
        self.client = exchange.client ?? exchange.request["client_id"]?.stringValue
    }

    /// A short label for test names: the last four characters of the client id, e.g. "…0001".
    public var shortLabel: String {
        guard let client else { return "client unknown" }
        return "client …" + String(client.suffix(4))
    }

    /// "user U client C", with "?" for what is unknown.
    public var description: String { "user \(user ?? "?") client \(client ?? "?")" }
}
