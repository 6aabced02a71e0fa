import AccordDriver
import Corpus
import Foundation
import Reports

/// `accord run --client CMD --kill-matrix PATH...`: every case played once per kill point it
/// reaches (docs/kill-matrix.md), one suite per case and point named `<case> @ <point>`.
public enum KillMatrixRun {
    /// Runs the matrix.
    /// - Parameters:
    ///   - options: what to run (the client lane's options; the known-failing list does not apply).
    ///   - launch: starts a driver with extra environment variables.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report.
    public static func run(_ options: ClientRun.Options, launch: @escaping KillLauncher, output: (String) -> Void) async throws(RunError)
        -> Bool
    {
        try CheckRun.checkReportPaths(junit: options.junitPath, json: options.jsonPath, inputs: options.paths)
        var reports = try ReportFanout(
            junitPath: options.junitPath, jsonPath: options.jsonPath, name: "accord run --client \(options.clientName) --kill-matrix")
        for suite in try await collect(options, launch: launch) { try reports.add(suite) }
        try reports.finish()
        output(reports.summary.render(color: options.color))
        return reports.summary.isPassing
    }

    /// Plays the matrix quietly and returns its suites (played ones first, then skipped ones).
    static func collect(_ options: ClientRun.Options, launch: @escaping KillLauncher) async throws(RunError) -> [SuiteResult] {
        let all = try ServerRun.loadCases(options.paths, maxLine: options.maxLine)
        let filtered = all.filter { CheckRun.matches($0.id, options.filter) }
        if filtered.isEmpty, let filter = options.filter { throw RunError.usage("--filter '\(filter)' matches no case id") }
        let cases = filtered.enumerated().filter { $0.offset % options.shard.count == options.shard.index - 1 }.map(\.element)
        let properties = [
            SuiteResult.Property(name: "lane", value: "client-kill-matrix"),
            SuiteResult.Property(name: "target", value: options.clientName),
            SuiteResult.Property(name: "accord_version", value: CheckRun.accordVersion),
        ]
        let killSafe = await probe(launch, timeout: options.requestTimeout)
        var suites: [SuiteResult] = []
        var work: [(LoadedTranscript, KillPoint, Int)] = []
        for item in cases {
            switch item.kind {
            case .blocked(let entry):
                suites.append(TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties))
            case .recording(_, let file):
                suites.append(
                    skipped(
                        "\(item.id) @ kill-matrix", caseID: "recording/\(item.id)", file: file, properties,
                        "recordings are not played under the kill matrix"))
            case .transcript(let loaded):
                if let reason = killSafe {
                    suites.append(skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, reason))
                } else if let reason = ClientCasePlan(loaded.transcript).inapplicable {
                    suites.append(
                        skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, "not applicable: \(reason)"))
                } else {
                    for point in KillPoint.allCases {
                        if let target = point.target(in: loaded.transcript) { work.append((loaded, point, target)) }
                    }
                }
            }
        }
        let lane = ClientLane(requestTimeout: options.requestTimeout)
        let units = work
        let played = await CaseSchedule.run(count: units.count, jobs: options.jobs) { index in
            let (loaded, point, target) = units[index]
            let started = ContinuousClock.now
            let hook = point.hasDriverHook ? ["ACCORD_KILL_AT": point.rawValue] : [:]
            let kill = KillState(point: point, target: target, relaunch: { () throws(RunError) in try launch([:]) }, hooked: !hook.isEmpty)
            var suite = await lane.run(loaded, launch: { () throws(RunError) in try launch(hook) }, properties: properties, kill: kill)
            suite.properties.append(SuiteResult.Property(name: "kill_point", value: point.rawValue))
            suite.time = CheckRun.seconds(since: started)
            return suite
        }
        return played + suites
    }

    /// A suite of one skipped test case, named after the case (`kizuna.kill.<case id>`).
    static func skipped(_ name: String, caseID: String, file: String?, _ properties: [SuiteResult.Property], _ reason: String)
        -> SuiteResult
    {
        SuiteResult(
            name: name, file: file, properties: properties,
            cases: [
                CaseResult(name: "kill matrix", classname: CaseResult.classname(lane: "kill", caseID: caseID), outcome: .skipped(reason))
            ])
    }

    /// Starts one driver and asks hello: nil when it announces `kill-safe`, else why the matrix is skipped.
    static func probe(_ launch: KillLauncher, timeout: Duration) async -> String? {
        let channel: any DriverChannel
        do throws(RunError) {
            channel = try launch([:])
        } catch {
            return "the driver did not start: \(error)"
        }
        await channel.send(
            DriverRequest(id: 1, .hello(protocolVersion: DriverRequest.protocolVersion)).line, timeout: max(.seconds(10), timeout))
        let event = await channel.nextLine(timeout: max(.seconds(10), timeout))
        _ = await channel.finish(timeout: .seconds(5))
        guard case .line(let bytes) = event, let response = try? DriverResponse(line: bytes, answering: .hello),
            case .hello(let hello)? = response.result
        else { return "the driver did not answer hello" }
        if hello.capabilities.contains(DriverCapability.killSafe) { return nil }
        return "unsupported: the driver does not announce kill-safe"
    }
}
