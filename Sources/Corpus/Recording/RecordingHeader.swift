import JSON
import KizunaWire

/// The first line of a recording: what wrote it and under which policy.
public struct RecordingHeader: Sendable, Hashable {
    /// The recording format version this build reads and writes.
    public static let currentVersion = 1

    /// The format version.
    public var version: Int
    /// The protocol recorded: "kizunasync" (the default, and what every recording before
    /// `accord record --profile` says) or "powersync" (a `CorpusProfile` raw value); a reader
    /// reads a "powersync" recording with the PowerSync rules.
    public var protocolName: String
    /// The tool that wrote it, e.g. "accord 0.1.0".
    public var tool: String
    /// When recording started (RFC 3339).
    public var startedAt: String
    /// The upstream host.
    public var upstream: String
    /// The redaction policy applied, verbatim.
    public var redaction: JSONValue

    /// Makes a header.
    /// - Parameters:
    ///   - protocolName: the protocol.
    ///   - tool: the writing tool.
    ///   - startedAt: the start time.
    ///   - upstream: the upstream host.
    ///   - redaction: the redaction policy.
    public init(protocolName: String = "kizunasync", tool: String, startedAt: String, upstream: String, redaction: JSONValue) {
        self.version = Self.currentVersion
        self.protocolName = protocolName
        self.tool = tool
        self.startedAt = startedAt
        self.upstream = upstream
        self.redaction = redaction
    }

    /// Reads a header line.
    /// - Throws: `WireError` with the pointer of the offending value.
    public init(json: JSONValue) throws(WireError) {
        var reader = try ObjectReader(json, at: .root, malformed: .json)
        version = try reader.integer("accord_recording")
        if version != Self.currentVersion {
            throw WireError(
                .json, at: JSONPointer(tokens: ["accord_recording"]),
                "recording format \(version) is not supported (this build reads \(Self.currentVersion))")
        }
        protocolName = try reader.string("protocol")
        tool = try reader.string("tool")
        startedAt = try reader.string("started_at")
        upstream = try reader.string("upstream")
        redaction = try reader.required("redaction")
        try reader.finish()
    }

    /// The header line's JSON.
    public var json: JSONValue {
        [
            "accord_recording": .number(JSONNumber(version)), "protocol": .string(protocolName), "redaction": redaction,
            "started_at": .string(startedAt), "tool": .string(tool), "upstream": .string(upstream),
        ]
    }
}
