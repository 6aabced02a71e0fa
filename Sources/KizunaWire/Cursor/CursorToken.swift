/// The pull cursor token (D-cursor-opaque-token): `<hw>`, `<hw>~<h1>.<h2>…` with holes, or a
/// continuation `<start>:<hw>[~holes]`; `0` is bootstrap. Only canonical text parses.
public struct CursorToken: Sendable, Hashable, CustomStringConvertible {
    /// The checkpoint the transfer started from; present only on a continuation page's token.
    public let start: SequenceNumber?
    /// The high-water mark.
    public let highWater: SequenceNumber
    /// Gaps below the high-water, strictly ascending.
    public let holes: [SequenceNumber]

    /// The bootstrap token "0".
    public static let bootstrap = CursorToken(uncheckedStart: nil, highWater: .zero, holes: [])

    private init(uncheckedStart start: SequenceNumber?, highWater: SequenceNumber, holes: [SequenceNumber]) {
        self.start = start
        self.highWater = highWater
        self.holes = holes
    }

    /// Makes a token from its parts, refusing holes that are not ascending, zero, or at or above
    /// the high-water.
    /// - Parameters:
    ///   - start: the continuation start, or nil for a checkpoint token.
    ///   - highWater: the high-water mark.
    ///   - holes: the holes, ascending.
    /// - Throws: `WireError` with code `.malformedCursor` when the parts break the grammar.
    public init(start: SequenceNumber? = nil, highWater: SequenceNumber, holes: [SequenceNumber] = []) throws(WireError) {
        for (index, hole) in holes.enumerated() {
            if hole == .zero || hole >= highWater || (index > 0 && holes[index - 1] >= hole) {
                throw WireError.malformedCursor("holes must be ascending, non-zero and below the high-water")
            }
        }
        self.init(uncheckedStart: start, highWater: highWater, holes: holes)
    }

    /// Parses canonical wire text; anything not already canonical is refused.
    /// - Parameter text: the token text.
    /// - Throws: `WireError` with code `.malformedCursor` naming the text.
    public init(parsing text: String) throws(WireError) {
        var rest = Substring(text)
        var start: SequenceNumber?
        if let colon = rest.firstIndex(of: ":") {
            guard let parsed = SequenceNumber(rest[..<colon]) else { throw WireError.malformedCursor(text) }
            start = parsed
            rest = rest[rest.index(after: colon)...]
        }
        var holeText: Substring?
        if let tilde = rest.firstIndex(of: "~") {
            holeText = rest[rest.index(after: tilde)...]
            rest = rest[..<tilde]
        }
        guard let highWater = SequenceNumber(rest) else { throw WireError.malformedCursor(text) }
        var holes: [SequenceNumber] = []
        if let holeText {
            for part in holeText.split(separator: ".", omittingEmptySubsequences: false) {
                guard let hole = SequenceNumber(part), hole != .zero else { throw WireError.malformedCursor(text) }
                holes.append(hole)
            }
        }
        do {
            try self.init(start: start, highWater: highWater, holes: holes)
        } catch {
            throw WireError.malformedCursor(text)
        }
    }

    /// True for a continuation page's token (it names the transfer's start).
    public var isContinuation: Bool { start != nil }

    /// True for the bootstrap token "0".
    public var isBootstrap: Bool { start == nil && highWater == .zero && holes.isEmpty }

    /// The checkpoint a transfer that continues from this token started at: the start when
    /// present, else the high-water.
    public var transferStart: SequenceNumber { start ?? highWater }

    /// True when `seq` is one of this token's holes.
    /// - Parameter seq: a sequence number.
    /// - Returns: whether it is a hole.
    public func hasHole(_ seq: SequenceNumber) -> Bool { holes.contains(seq) }

    /// The canonical wire text.
    public var description: String {
        var text = ""
        if let start { text += start.text + ":" }
        text += highWater.text
        if !holes.isEmpty { text += "~" + holes.map(\.text).joined(separator: ".") }
        return text
    }

    /// Compares high-water marks, the order I-3 keeps non-decreasing.
    /// - Parameter other: another token.
    /// - Returns: whether this token's high-water is below the other's.
    public func highWaterPrecedes(_ other: CursorToken) -> Bool { highWater < other.highWater }
}
