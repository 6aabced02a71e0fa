import Corpus
import KizunaWire

/// An exchange whose request and response decoded strictly.
public enum DecodedExchange: Sendable {
    /// A pull.
    case pull(PullRequest, PullResponse)
    /// A push.
    case push(PushRequest, PushResponse)
}
