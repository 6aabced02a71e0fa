import Corpus
import Foundation
import KizunaWire
import ReferenceServer
import ServerContract
import Testing

/// The shared upstream corpus and scenarios file, read in place next to the package root.
enum SharedFiles {
    /// The package root: this file is <root>/Tests/ReferenceServerTests/CorpusSupport.swift.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// ../shared.
    static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// ../shared/kizunasync-protocol.
    static let corpus: URL = shared.appendingPathComponent("kizunasync-protocol")

    /// Every transcript's path relative to the corpus root, sorted.
    static let transcripts: [String] = {
        let base = corpus.appendingPathComponent("transcripts")
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let next = enumerator.nextObject() as? String {
            if next.hasSuffix(".json") { found.append("transcripts/" + next) }
        }
        return found.sorted()
    }()

    /// Reads a file's bytes.
    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Loads one transcript.
    static func transcript(_ relative: String) throws -> Transcript {
        try LoadedTranscript(raw: try bytes(corpus.appendingPathComponent(relative)), file: relative).transcript
    }

    /// The scenarios file (../shared/corpus-scenarios.json).
    static func scenarios() throws -> Scenarios {
        let url = shared.appendingPathComponent("corpus-scenarios.json")
        return try Scenarios(json: try JSONParser.parse(try bytes(url)), file: url.path)
    }
}

/// The first JSON pointer where two values differ, or nil when they are equal.
func firstDifference(_ expected: JSONValue, _ actual: JSONValue, at pointer: JSONPointer = .root) -> JSONPointer? {
    switch (expected, actual) {
    case (.object(let left), .object(let right)):
        for key in Set(left.keys).union(right.keys).sorted() {
            guard let a = left[key], let b = right[key] else { return pointer.appending(key) }
            if let found = firstDifference(a, b, at: pointer.appending(key)) { return found }
        }
        return nil
    case (.array(let left), .array(let right)):
        for index in 0..<max(left.count, right.count) {
            guard index < left.count, index < right.count else { return pointer.appending(index) }
            if let found = firstDifference(left[index], right[index], at: pointer.appending(index)) { return found }
        }
        return nil
    default:
        return CanonicalJSON.compact(expected) == CanonicalJSON.compact(actual) ? nil : pointer
    }
}

/// Plays a transcript's server steps and RPCs against a fresh in-memory reference server.
struct CorpusReplay {
    /// The actor that history changes are attributed to.
    static let historyActor = "00000000-0000-4000-8000-c10000000002"

    let transcript: Transcript
    let scenario: Scenarios.Scenario

    /// The seed for the case.
    var seed: Seed {
        let history: [FixtureChange] = scenario.history.map { change in
            switch change {
            case .upsert(let table, let pk, let columns):
                .upsert(table: table, pk: pk, columns: columns, actor: Self.historyActor, hlc: nil)
            case .delete(let table, let pk): .delete(table: table, pk: pk, actor: Self.historyActor)
            case .reap: .reap
            }
        }
        return Seed(server: transcript.context.server, nextSeq: scenario.nextSeq ?? SequenceNumber(1), history: history)
    }

    /// Runs every step; returns a description of each mismatch (empty when byte-equal throughout).
    func run() async throws -> [String] {
        let server = try ReferenceServer()
        try await server.seed(seed)
        let context = transcript.context
        let identity = Identity(user: context.userID, session: context.clientID)
        var mismatches: [String] = []
        for step in transcript.steps {
            try await server.setStep(step.n)
            switch step.action {
            case .server(let change):
                let fixture: FixtureChange =
                    change.op == "delete"
                    ? .delete(table: change.table, pk: change.pk, actor: change.actor)
                    : .upsert(
                        table: change.table, pk: change.pk, columns: change.columns ?? JSONObject(), actor: change.actor, hlc: change.hlc)
                let txn = scenario.held.first { $0.step == step.n }?.transaction
                try await server.apply(fixture, heldIn: txn)
            case .reap:
                try await server.apply(.reap, heldIn: nil)
            case .rpc(let exchange):
                let reply =
                    exchange.rpc == .pull
                    ? try await server.pull(exchange.request, as: identity) : try await server.push(exchange.request, as: identity)
                if reply.status != 200 {
                    mismatches.append("step \(step.n): status \(reply.status) \(CanonicalJSON.compact(reply.body))")
                } else if CanonicalJSON.render(reply.body) != CanonicalJSON.render(exchange.response) {
                    let pointer = firstDifference(exchange.response, reply.body) ?? .root
                    mismatches.append(
                        "step \(step.n) \(exchange.rpc.rawValue): differs at \(pointer): expected "
                            + "\(CanonicalJSON.compact(exchange.response)) got \(CanonicalJSON.compact(reply.body))")
                }
            case .fault(let fault):
                if fault.fault == .dropAck, let request = fault.request {
                    _ = fault.target == .pull ? try await server.pull(request, as: identity) : try await server.push(request, as: identity)
                }
            case .local, .assert:
                break
            }
            for held in scenario.held where held.commitAfterStep == step.n {
                try await server.commit(transaction: held.transaction)
            }
        }
        return mismatches
    }
}
