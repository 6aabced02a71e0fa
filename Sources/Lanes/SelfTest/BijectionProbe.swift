import Foundation
import Harness
import JSON

/// The self-test's client-only probe: push/001 cut after its push, whose golden answer now
/// carries a verdict for a mutation never sent. Only a client that checks the verdict bijection
/// passes it; it is no Accord case, since its golden response is invalid for the server lane.
enum BijectionProbe {
    /// The probe's case id.
    static let caseID = "push/990-bijection-broken-response"
    /// The mutation id of the extra verdict.
    static let strayMutationID = "00000000-0000-4000-8000-f19999999999"

    /// Writes the probe transcript into `folder`.
    /// - Parameters:
    ///   - corpus: the shared corpus folder (the probe is built from its push/001).
    ///   - folder: where to write it.
    /// - Returns: the probe's path.
    /// - Throws: `RunError.usage` when push/001 is missing or not the shape the probe needs.
    static func write(corpus: String, into folder: URL) throws(RunError) -> String {
        let source = corpus + "/transcripts/push/001-insert-applied.json"
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: source)), var json = try? JSONParser.parse([UInt8](data)) else {
            throw RunError.usage("the bijection probe needs \(source)")
        }
        guard case .array(let steps)? = json["steps"], steps.count >= 3, var push = steps[2].objectValue,
            case .array(var verdicts)? = push["response"]?["verdicts"], let first = verdicts.first
        else { throw RunError.usage("\(source): not the push case the bijection probe expects") }
        verdicts.append(first.replacing(at: JSONPointer(tokens: ["mutation_id"]), with: .string(strayMutationID)))
        push["response"] = ["verdicts": .array(verdicts)]
        push["expect_error"] = "VERDICT_BIJECTION"
        json = json.replacing(at: JSONPointer(tokens: ["steps"]), with: .array([steps[0], steps[1], .object(push)]))
        json = json.replacing(at: JSONPointer(tokens: ["postconditions"]), with: [["check": "outbox-depth", "value": 1]])
        json = json.replacing(at: JSONPointer(tokens: ["case"]), with: .string(caseID))
        let file = folder.appendingPathComponent("bijection-probe.json")
        do {
            try Data(CanonicalJSON.render(json)).write(to: file)
        } catch {
            throw RunError.output(file.path, "\(error)")
        }
        return file.path
    }
}
