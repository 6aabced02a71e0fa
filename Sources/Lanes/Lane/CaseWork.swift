import Corpus
import Harness
import PowerSyncWire
import Reports

/// A unit of the server and client lanes: a case of any profile to play (a PowerSync case only
/// in a lane that plays PowerSync cases), or a recording to replay.
package enum CaseWork: Sendable {
    case transcript(any ProfiledCase)
    case recording(RecordingSource)

    /// The selected cases as work, blocked and unplayable entries last (the order reports have
    /// always had); PowerSync cases become work only when `playsPowerSync`.
    static func plan(_ cases: [CaseSource.Case], playsPowerSync: Bool, properties: [SuiteResult.Property]) -> [LanePlan<CaseWork>] {
        var work: [LanePlan<CaseWork>] = []
        var notPlayed: [LanePlan<CaseWork>] = []
        for item in cases {
            switch item.kind {
            case .transcript(let loaded): work.append(.play(.transcript(loaded)))
            case .recording(let source): work.append(.play(.recording(source)))
            case .powerSync(let loaded) where playsPowerSync: work.append(.play(.transcript(loaded)))
            case .powerSync(let loaded):
                notPlayed.append(
                    .notPlayed(
                        CaseSource.unsupportedSuite(
                            item.id, file: loaded.file, reason: CaseSource.powerSyncReason,
                            properties: properties + PowerSync.serverProperties(of: loaded)))
                )
            case .blocked(let entry):
                notPlayed.append(.notPlayed(TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties)))
            case .unsupported(let file, let reason):
                notPlayed.append(.notPlayed(CaseSource.unsupportedSuite(item.id, file: file, reason: reason, properties: properties)))
            }
        }
        return work + notPlayed
    }

    /// Which targets the selected cases need checked: the KizunaSync target (also when nothing
    /// is played, so a run of blocked entries still names a target it cannot reach) and the
    /// PowerSync one (only when the lane plays PowerSync cases).
    static func targets(_ cases: [CaseSource.Case], playsPowerSync: Bool) -> (kizunaSync: Bool, powerSync: Bool) {
        var kizunaSync = false
        var powerSync = false
        for item in cases {
            switch item.kind {
            case .transcript, .recording: kizunaSync = true
            case .powerSync: powerSync = powerSync || playsPowerSync
            case .blocked, .unsupported: break
            }
        }
        return (kizunaSync || !powerSync, powerSync)
    }
}
