import AccordDriver
import Corpus
import JSON

/// What the client lane derives from a transcript before playing it: the full writes (the
/// golden push request carries each mutation's precondition and atomic batch), the checkpoint
/// and page size the client starts with, and the capabilities the case needs.
struct ClientCasePlan: Sendable {
    /// The write request for each local step, by step number.
    var writes: [Int: WriteRequest] = [:]
    /// The cursor a new store starts at: the first pull request's cursor.
    var checkpoint: String?
    /// The first pull request's `limit`.
    var pullLimit: Int?
    /// The driver capabilities the case uses.
    var needs: Set<String> = []
    /// The parts of the protocol the case plays (`DriverPart`), each with the first step that does.
    var parts: [String: Int] = [:]
    /// Why the case cannot run in the client lane, if it cannot.
    var inapplicable: String?

    init(_ transcript: Transcript) {
        var pushed: [String: (mutation: JSONValue, group: String?)] = [:]
        for step in transcript.steps {
            var request: JSONValue?
            switch step.action {
            case .rpc(let exchange) where exchange.isAnotherClient(than: transcript.context):
                // Another client's exchange is the server lane's: the mock answers this client alone.
                continue
            case .rpc(let exchange):
                if parts[exchange.rpc.rawValue] == nil { parts[exchange.rpc.rawValue] = step.n }
                if exchange.rpc == .push { request = exchange.request }
                if exchange.rpc == .pull, inapplicable == nil,
                    let foreign = Self.foreignBucket(exchange.request, user: transcript.context.userID)
                {
                    inapplicable =
                        "step \(step.n) pulls the bucket \(foreign), not the case user's; a server-side case no client can send"
                }
                if exchange.rpc == .pull { start(at: exchange.request) }
            case .fault(let fault):
                if parts[fault.fault.rawValue] == nil { parts[fault.fault.rawValue] = step.n }
                if parts[fault.target.rawValue] == nil { parts[fault.target.rawValue] = step.n }
                if fault.target == .push { request = fault.request }
                // A pull that fails first still says where the client starts and its page size.
                if fault.target == .pull, let sent = fault.request { start(at: sent) }
            case .local:
                if parts[DriverPart.write] == nil { parts[DriverPart.write] = step.n }
            default:
                break
            }
            guard let request, case .array(let mutations)? = request["batch"]?["mutations"] else { continue }
            let atomic = request["batch"]?["atomic"] == .bool(true)
            for mutation in mutations {
                guard let id = mutation["mutation_id"]?.stringValue, pushed[id] == nil else { continue }
                pushed[id] = (mutation, atomic ? "push-step-\(step.n)" : nil)
            }
        }
        for step in transcript.steps {
            guard case .local(let local) = step.action else { continue }
            var write = local
            let golden = pushed[local.mutationID]
            if write.precondition == nil, let precondition = golden?.mutation["precondition"]?.objectValue {
                write.precondition = precondition
            }
            let request = WriteRequest(write, atomicGroup: golden?.group)
            writes[step.n] = request
            if !write.transforms.isEmpty { needs.insert(DriverCapability.transforms) }
            if golden?.group != nil { needs.insert(DriverCapability.atomic) }
        }
        if transcript.context.server.tables.contains(where: { $0.softDeleteColumn != nil }) {
            needs.insert(DriverCapability.softDelete)
        }
    }

    /// Takes the cursor and page size a new store starts at from the case's first pull request.
    private mutating func start(at request: JSONValue) {
        guard checkpoint == nil else { return }
        checkpoint = request["cursor"]?.stringValue
        pullLimit = request["limit"]?.numberValue?.intValue
    }

    /// What the case plays that a driver declaring `declared` does not, e.g.
    /// `write (step 1), push (step 3)`; nil when it plays nothing more.
    func missingParts(_ declared: [String]) -> String? {
        let missing = DriverPart.all.filter { parts[$0] != nil && !declared.contains($0) }
        guard !missing.isEmpty else { return nil }
        return missing.map { "\($0) (step \(parts[$0] ?? 0))" }.joined(separator: ", ")
    }

    /// A bucket value of a pull request other than the case user's, if any.
    static func foreignBucket(_ request: JSONValue, user: String) -> String? {
        for bucket in request["buckets"]?.arrayValue ?? [] {
            for member in bucket["params"]?.objectValue?.members ?? [] where member.value != .string(user) {
                return "\(member.key)=\(member.value.stringValue ?? CanonicalJSON.compact(member.value))"
            }
        }
        return nil
    }
}
