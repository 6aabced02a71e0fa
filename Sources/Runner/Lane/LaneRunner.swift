import Foundation
import Reports

/// The one run loop of every lane: check the report paths, select the cases (filter, shard),
/// prepare the lane (its preflight), plan, play the units a few at a time, apply the
/// known-failing list, and report each suite in input order as it ends.
struct LaneRunner: Sendable {
    /// The inputs, the selection, the reports and the console.
    var options: RunOptions

    init(_ options: RunOptions) { self.options = options }

    /// Runs the lane, reporting each suite as it ends; returns true when nothing failed.
    func run<L: Lane>(_ lane: L, output: (String) -> Void) async throws(RunError) -> Bool {
        try options.reports.check(inputs: options.inputs.paths)
        let (cases, ids) = try options.source.selected()
        let shared = try await lane.prepare(cases, preflight: true)
        defer { lane.release(shared) }
        let plan = lane.plan(cases, shared)
        var report = try ReportSession(options.reports, name: lane.reportName, console: options.console, total: plan.count)
        let knownFailing = options.selection.knownFailing
        await CaseSchedule.stream(count: plan.count, jobs: options.selection.jobs, Self.unit(plan, lane, shared)) { index, suite in
            report.ended(index, knownFailing.apply(to: suite), output: output)
        }
        if let unknown = knownFailing.unknownEntries(among: ids) { report.add(unknown, output: output) }
        return try report.finish(output: output)
    }

    /// Plays the lane quietly, with no preflight: its suites (known-failing applied) in report
    /// order, and every case id of the inputs.
    func collect<L: Lane>(_ lane: L) async throws(RunError) -> (suites: [SuiteResult], ids: Set<String>) {
        let (cases, ids) = try options.source.selected()
        let shared = try await lane.prepare(cases, preflight: false)
        defer { lane.release(shared) }
        let plan = lane.plan(cases, shared)
        let suites = await CaseSchedule.run(count: plan.count, jobs: options.selection.jobs, Self.unit(plan, lane, shared))
        let knownFailing = options.selection.knownFailing
        return (suites.map { knownFailing.apply(to: $0) }, ids)
    }

    /// Plays one entry of the plan, timing a played unit.
    private static func unit<L: Lane>(_ plan: [LanePlan<L.Unit>], _ lane: L, _ shared: L.Shared) -> @Sendable (Int) async -> SuiteResult {
        { index in
            switch plan[index] {
            case .notPlayed(let suite): return suite
            case .play(let unit):
                let started = ContinuousClock.now
                var suite = await lane.play(unit, shared)
                suite.time = RunClock.seconds(since: started)
                return suite
            }
        }
    }
}
