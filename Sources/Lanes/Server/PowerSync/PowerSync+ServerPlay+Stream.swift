import Checks
import Corpus
import JSON
import PowerSyncWire
import Reports
import ServerContract

extension PowerSync.ServerPlay {
    /// Plays a sync-stream step: opens the stream, reads one live line for each golden line
    /// (keepalives aside), performing the source-side steps that happen during it after the line
    /// they name, then closes it. Every live line goes through the PS rules with its own NDJSON
    /// line number; a golden line that differs, or one the stream never sends, is AC-GOLDEN.
    mutating func stream(_ n: Int, request: JSONValue, golden: [JSONValue], name: String, on target: any PowerSync.ServerTarget) async {
        let location = StepLocation(number: n, label: "sync-stream")
        let during = transcript.steps.filter { $0.during?.step == n }
        var findings: [Finding] = []
        var liveLines: [JSONValue] = []
        let handle: any PowerSync.StreamHandle
        do throws(TargetError) { handle = try await target.openStream(body: request, userID: transcript.userID) } catch {
            stop(error, name: name)
            return
        }
        findings += checker.observe(PowerSync.Trace.Event(location: location, payload: .streamOpened(request: request)))
        var failure: TargetError?
        lines: for (index, expected) in golden.enumerated() {
            let goldenLine = index + 1
            if !SyncLineComparison.isKeepalive(expected) {
                var live: JSONValue?
                do throws(TargetError) {
                    while let line = try await handle.nextLine() {
                        liveLines.append(line)
                        var at = location
                        at.streamLine = liveLines.count
                        findings += checker.observe(PowerSync.Trace.Event(location: at, payload: .line(line)))
                        if !SyncLineComparison.isKeepalive(line) {
                            live = line
                            break
                        }
                    }
                } catch {
                    failure = error
                    break lines
                }
                var at = location
                at.streamLine = liveLines.count
                guard let live else {
                    at.streamLine = liveLines.count + 1
                    findings.append(
                        Finding(
                            "AC-GOLDEN", at: at, pointer: .root,
                            "the stream sent nothing more; golden NDJSON line \(goldenLine) was expected", expected: expected))
                    break lines
                }
                if let difference = SyncLineComparison.difference(live, golden: expected) {
                    findings.append(
                        Finding(
                            "AC-GOLDEN", at: at, pointer: difference.pointer,
                            "the live line differs from golden NDJSON line \(goldenLine)", expected: difference.expected,
                            actual: difference.actual ?? .null))
                }
            }
            for step in during where step.during?.afterLine == goldenLine {
                await perform(step, on: target)
                if case .stopped = phase { break lines }
            }
        }
        await handle.close()
        findings += checker.observe(PowerSync.Trace.Event(location: location, payload: .streamClosed))
        if let failure {
            stop(failure, name: name)
            return
        }
        answers.append(Answer(n: n, body: .lines(liveLines)))
        let seen = liveLines
        record(name, findings: findings, note: UnreadNote.note(for: liveLines)) { finding in
            guard let line = finding.location?.streamLine, seen.indices.contains(line - 1) else { return .null }
            return seen[line - 1]
        }
    }
}
