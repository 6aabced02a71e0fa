import KizunaWire

/// One mark on a sequence picture: an arrow between two lifelines (a request or its answer) or
/// a mark on one lifeline (a local write, a server change, a fault, a kill, a state check).
public struct SequenceEvent: Sendable, Hashable {
    /// What the mark stands for.
    public enum Kind: KebabNamed {
        /// A pull or push request, client to server.
        case request
        /// The server's answer, server to client.
        case answer
        /// An answer that never reached the client (a dropped ack, a recorded status 0).
        case lostAnswer
        /// A transport fault: the request never reached the server.
        case fault
        /// A client-local write (and its outbox entry).
        case localWrite
        /// Another actor's change on the server, or the reaper.
        case serverChange
        /// The kill matrix's SIGKILL of the client and its restart on the same store.
        case kill
        /// Checks of the client's state.
        case check
    }

    /// What the mark stands for.
    public var kind: Kind
    /// The lifeline it starts on (or sits on), an index into `SequenceTimeline.lifelines`.
    public var from: Int
    /// The lifeline an arrow ends on; nil for a mark on one lifeline.
    public var to: Int?
    /// A short label drawn next to the mark, e.g. "push: 2 mutations".
    public var label: String
    /// The full text shown on hover and in the step list, e.g. the body as compact JSON.
    public var detail: String
    /// The transcript step or recorded exchange number the mark belongs to; the cases that
    /// report on that number (`CaseResult.step`) colour it.
    public var step: Int?

    /// The longest `detail` kept, in characters; longer text is cut with an ellipsis.
    public static let detailLimit = 2000

    /// Makes an event.
    /// - Parameters:
    ///   - kind: what it stands for.
    ///   - from: the lifeline it starts on.
    ///   - to: the lifeline an arrow ends on.
    ///   - label: the short label.
    ///   - detail: the full text, cut at `detailLimit` characters.
    ///   - step: the step or exchange number.
    public init(kind: Kind, from: Int, to: Int? = nil, label: String, detail: String = "", step: Int? = nil) {
        self.kind = kind
        self.from = from
        self.to = to
        self.label = label
        self.detail = detail.count > Self.detailLimit ? String(detail.prefix(Self.detailLimit)) + "…" : detail
        self.step = step
    }
}
