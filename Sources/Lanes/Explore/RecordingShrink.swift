import Corpus
import Harness
import JSON
import KizunaWire
import Reports
import ServerContract

/// `accord shrink`: cuts a recording whose replay against a server fails down to the fewest
/// exchanges that still fail the same way (the first failure's `ExploreFingerprint`), as delta
/// debugging does: runs of exchanges (halves, quarters, … single ones) are dropped while the
/// replay of what is left, against a fresh target, fails first with the same fingerprint. The
/// world the recording implies (its history, other writers) is inferred again from what is left,
/// as `accord run` does for any recording.
package struct RecordingShrink: Sendable {
    /// A failing recording cut down.
    package struct Shrunk: Sendable {
        package var recording: RecordingContents
        package var fingerprint: String
        /// The kind of exchange the first failure is at (push, pull, …).
        package var kind: String
        package var failures: [Failure]
        /// The exchanges of the recording as given, and the replays tried.
        package var from: Int
        package var tries: Int
    }

    let makeTarget: KizunaSync.TargetFactory
    var requiredTier: ResponseTier
    var maxTries: Int

    package init(makeTarget: @escaping KizunaSync.TargetFactory, requiredTier: ResponseTier = .bound, maxTries: Int = 2000) {
        self.makeTarget = makeTarget
        self.requiredTier = requiredTier
        self.maxTries = maxTries
    }

    /// The recording cut down, or nil when its replay does not fail (nothing to shrink).
    package func shrink(_ recording: RecordingContents, file: String) async -> Shrunk? {
        guard let (fingerprint, kind, failures) = await failure(of: recording, file: file) else { return nil }
        var best = Shrunk(
            recording: recording, fingerprint: fingerprint, kind: kind, failures: failures, from: recording.exchanges.count, tries: 0)
        var smaller = true
        while smaller && best.tries < maxTries {
            smaller = false
            for candidate in Self.cuts(of: best.recording) {
                guard best.tries < maxTries else { break }
                best.tries += 1
                guard let (found, _, failing) = await failure(of: candidate, file: file), found == fingerprint else { continue }
                best.recording = candidate
                best.failures = failing
                smaller = true
                break
            }
        }
        return best
    }

    /// The first failure of a replay and its fingerprint, or nil when the replay passes.
    func failure(of recording: RecordingContents, file: String) async -> (fingerprint: String, kind: String, failures: [Failure])? {
        let suite = await RecordingReplay(requiredTier: requiredTier).run(recording, file: file, makeTarget: makeTarget, properties: [])
        for result in suite.cases {
            guard case .failed(let failures) = result.outcome, let first = failures.first else { continue }
            let kind = result.name.split(separator: " ").dropFirst(2).first.map(String.init) ?? "exchange"
            return (ExploreFingerprint.of(first, kind: kind), kind, failures)
        }
        return nil
    }

    /// The recording with runs of exchanges dropped, the longest runs first; exchanges are
    /// numbered again from 1, as a recording's are.
    static func cuts(of recording: RecordingContents) -> [RecordingContents] {
        let exchanges = recording.exchanges
        var candidates: [RecordingContents] = []
        var size = max(1, exchanges.count / 2)
        while true {
            for start in stride(from: 0, to: exchanges.count, by: size) {
                var kept = exchanges
                kept.removeSubrange(start..<min(start + size, exchanges.count))
                guard !kept.isEmpty else { continue }
                for index in kept.indices { kept[index].number = index + 1 }
                candidates.append(RecordingContents(header: recording.header, exchanges: kept))
            }
            if size == 1 { break }
            size /= 2
        }
        return candidates
    }
}

extension RecordingShrink {
    /// Keeps a shrunk recording as a corpus case in `findings`, converted with the world its
    /// exchanges imply (`RecordingToTranscript`: its golden answers are the recorded ones, so its
    /// replay is judged by order and bijection, as a recording's is); returns the case id and file.
    package static func keep(_ shrunk: Shrunk, in findings: String, notes: [String]) throws(RunError) -> (caseID: String, file: String) {
        let flow = ExploreRun.flow(of: shrunk.kind)
        let rule = shrunk.failures.first?.ruleID.rawValue ?? "finding"
        let converted = RecordingToTranscript.convert(
            shrunk.recording,
            options: RecordingToTranscript.Options(
                caseID: "\(flow)/001-shrunk", world: RecordingReplay.world(of: shrunk.recording)))
        let kept = try ExploreFindingsFolder(root: findings).keep(
            json: converted.json, held: [], flow: flow, slug: "shrunk-\(ExploreRun.slug(rule))", notes: notes)
        return (kept.caseID, kept.file)
    }
}
