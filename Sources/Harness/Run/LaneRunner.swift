import Foundation
import Reports

/// The one run loop of every lane: check the report paths, select the cases (filter, shard),
/// prepare the lane (its preflight), plan, play the units a few at a time, apply the
/// known-failing list, and report each suite in input order as it ends.
package struct LaneRunner: Sendable {
    /// The inputs, the selection, the reports and the console.
    package var options: RunOptions

    package init(_ options: RunOptions) { self.options = options }

    /// Runs the lane, reporting each suite as it ends; returns true when nothing failed.
    package func run<L: Lane>(_ lane: L, output: (String) -> Void) async throws(RunError) -> Bool {
        try options.reports.check(inputs: options.inputs.paths)
        let (ids, shared, plan) = try await prepared(lane, preflight: true)
        defer { lane.release(shared) }
        var report = try ReportSession(options.reports, name: lane.reportName, console: options.console, total: plan.count)
        let knownFailing = options.selection.knownFailing
        var unreadable: RunError?
        await CaseSchedule.stream(count: plan.count, jobs: options.selection.jobs, Self.unit(plan, lane, shared)) { index, played in
            switch played {
            case .success(let suite): if unreadable == nil { report.ended(index, knownFailing.apply(to: suite), output: output) }
            case .failure(let error): unreadable = unreadable ?? error
            }
        }
        if let unreadable { throw unreadable }
        if let unknown = knownFailing.unknownEntries(among: ids) { report.add(unknown, output: output) }
        return try report.finish(output: output)
    }

    /// Plays the lane quietly, with no preflight: its suites (known-failing applied) in report
    /// order, and every case id of the inputs.
    package func collect<L: Lane>(_ lane: L) async throws(RunError) -> (suites: [SuiteResult], ids: Set<String>) {
        let (ids, shared, plan) = try await prepared(lane, preflight: false)
        defer { lane.release(shared) }
        let played = await CaseSchedule.run(count: plan.count, jobs: options.selection.jobs, Self.unit(plan, lane, shared))
        let knownFailing = options.selection.knownFailing
        var suites: [SuiteResult] = []
        for result in played {
            switch result {
            case .success(let suite): suites.append(knownFailing.apply(to: suite))
            case .failure(let error): throw error
            }
        }
        return (suites, ids)
    }

    /// Selects the cases (read as the lane reads recordings), prepares the lane and plans them:
    /// every case id of the inputs, what the units share (the caller releases it), and the plan.
    private func prepared<L: Lane>(_ lane: L, preflight: Bool) async throws(RunError) -> (
        ids: Set<String>, shared: L.Shared, plan: [LanePlan<L.Unit>]
    ) {
        var source = options.source
        source.reading = lane.reading
        let (cases, ids) = try source.selected()
        let shared = try await lane.prepare(cases, preflight: preflight)
        return (ids, shared, lane.plan(cases, shared))
    }

    /// Plays one entry of the plan, timing a played unit.
    private static func unit<L: Lane>(_ plan: [LanePlan<L.Unit>], _ lane: L, _ shared: L.Shared)
        -> @Sendable (Int) async -> Result<SuiteResult, RunError>
    {
        { index in
            switch plan[index] {
            case .notPlayed(let suite): return .success(suite)
            case .play(let unit):
                let started = ContinuousClock.now
                do throws(RunError) {
                    var suite = try await lane.play(unit, shared)
                    suite.time = RunClock.seconds(since: started)
                    return .success(suite)
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}
