import AccordVersion
import Reports

/// A lane of a run: what it sets up and checks before the first case, how it plans the selected
/// cases into units of play, and how it plays one unit into a suite. `LaneRunner` is the one loop
/// that drives every lane (the server and client lanes, the kill and storage-fault matrices, and
/// `accord selftest`, which collects the same lanes quietly); a new lane is one conformer.
package protocol Lane: Sendable {
    /// One unit of play: a case, a recording, a case killed at one point.
    associatedtype Unit: Sendable
    /// What every unit of one run shares, made before the first unit (a driver's hello, libfiu's
    /// control pipes).
    associatedtype Shared: Sendable = Void

    /// The report's name, e.g. "accord run --server embedded".
    var reportName: String { get }
    /// How the lane's recordings are read (default: as the live lanes play them).
    var reading: CaseSource.Reading { get }

    /// Makes what the units share. With `preflight` it first checks the target the cases need
    /// (a target that cannot be tested as given is a setup error, before any report is opened);
    /// a quiet collect passes false and learns what it can without failing.
    func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) -> Shared

    /// The selected cases as units to play and suites of what is not played, in report order.
    func plan(_ cases: [CaseSource.Case], _ shared: Shared) -> [LanePlan<Unit>]

    /// Plays one unit; the runner times it. A unit whose input turns out unreadable as it is
    /// read (a recording streamed by `accord check`) throws: the run ends with that input error
    /// once the units already started have ended.
    func play(_ unit: Unit, _ shared: Shared) async throws(RunError) -> SuiteResult

    /// Releases what `prepare` made, once the last unit has ended.
    func release(_ shared: Shared)
}

extension Lane {
    package var reading: CaseSource.Reading { .played }

    package func release(_ shared: Shared) {}

    /// The properties every suite of a lane carries: its lane, its target and Accord's version.
    package static func properties(_ lane: LaneName, target: String) -> [SuiteResult.Property] {
        [
            .lane(lane), SuiteResult.Property(name: "target", value: target),
            SuiteResult.Property(name: "accord_version", value: AccordVersion.number),
        ]
    }
}

/// One entry of a lane's plan: a unit to play, or the suite of a case the lane does not play
/// (a blocked manifest entry, a case not applicable to this lane or target).
package enum LanePlan<Unit: Sendable>: Sendable {
    case play(Unit)
    case notPlayed(SuiteResult)
}
