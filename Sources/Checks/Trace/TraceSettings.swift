import Corpus

/// What the rules need to know about the trace as a whole.
public struct TraceSettings: Sendable, Hashable {
    /// The fencing mechanism; "visibility-horizon" lets a page re-deliver a hole of its request token.
    public var fencing: String
    /// The server's declared scan cap, when the trace declares one.
    public var scanCap: Int?
    /// The page size a pull without `limit` gets.
    public var defaultLimit: Int

    /// Makes settings.
    /// - Parameters:
    ///   - fencing: the fencing mechanism.
    ///   - scanCap: the declared scan cap.
    ///   - defaultLimit: the default page size.
    public init(fencing: String = "shared", scanCap: Int? = nil, defaultLimit: Int = 500) {
        self.fencing = fencing
        self.scanCap = scanCap
        self.defaultLimit = defaultLimit
    }

    /// The settings a transcript declares.
    /// - Returns: its settings.
    public static func of(_ transcript: Transcript) -> TraceSettings {
        TraceSettings(fencing: transcript.fencing, scanCap: transcript.context.server.maxPullScan)
    }

    /// The settings for live traffic: holes may be re-delivered, no scan cap is assumed.
    public static let live = TraceSettings(fencing: "visibility-horizon", scanCap: nil)
}
