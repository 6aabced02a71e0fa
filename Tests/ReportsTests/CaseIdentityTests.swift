import Testing

@testable import Reports

/// Test identities (issue 22, item 1): classname names the case, and (classname, name) is unique across a report.
@Suite("Case identity")
struct CaseIdentityTests {
    @Test("the classname is the lane and the case id, with the kill point where a case is played several times")
    func classnames() {
        #expect(
            CaseResult.classname(lane: "server", caseID: "push/002-rls-denied-not-a-wedge")
                == "kizuna.server.push.002-rls-denied-not-a-wedge")
        #expect(
            CaseResult.classname(lane: "kill", caseID: "push/001-insert-applied", variant: "after-push-sent")
                == "kizuna.kill.push.001-insert-applied@after-push-sent")
        #expect(CaseResult.classname(lane: "client", caseID: "recording/two users.v2.jsonl") == "kizuna.client.recording.two-users_v2")
    }

    @Test("a PowerSync case's classname starts with its profile, powersync.<lane>., not kizuna.")
    func powerSyncClassnames() {
        #expect(
            CaseResult.classname(lane: "server", caseID: "powersync/001-initial-sync-completes")
                == "powersync.server.001-initial-sync-completes")
        #expect(CaseResult.classname(lane: "check", caseID: "powersync/007-x") == "powersync.check.007-x")
        #expect(CaseResult.classname(lane: "server", caseID: "powersync") == "kizuna.server.powersync", "a bare name is not a PowerSync id")
    }

    @Test("a suite repeated in a report gets #2, a name repeated in a suite gets (2); the first keeps its identity")
    func repeats() {
        let suite = SuiteResult(
            name: "push/001",
            cases: [
                CaseResult(name: "step 1 push", classname: "kizuna.server.push.001", outcome: .passed),
                CaseResult(name: "step 1 push", classname: "kizuna.server.push.001", outcome: .passed),
            ])
        var identities = CaseIdentities()
        let first = identities.unique(suite)
        let second = identities.unique(suite)
        let third = identities.unique(suite)
        #expect(first.cases.map(\.classname) == ["kizuna.server.push.001", "kizuna.server.push.001"])
        #expect(first.cases.map(\.name) == ["step 1 push", "step 1 push (2)"])
        #expect(second.cases.map(\.classname) == ["kizuna.server.push.001#2", "kizuna.server.push.001#2"])
        #expect(third.cases.map(\.classname) == ["kizuna.server.push.001#3", "kizuna.server.push.001#3"])
        var again = CaseIdentities()
        #expect(again.unique(suite) == first, "the same order gives the same identities")
        let pairs = [first, second, third].flatMap(\.cases).map { "\($0.classname) \($0.name)" }
        #expect(Set(pairs).count == pairs.count)
    }

    @Test("the console summary counts the steps suites left to the other lane, and blocked entries")
    func otherLane() {
        var summary = ConsoleSummary()
        summary.add(
            SuiteResult(
                name: "a", properties: [SuiteResult.Property(name: SuiteResult.leftToLaneProperty("client"), value: "4")],
                cases: [CaseResult(name: "step 1 pull", classname: "k", outcome: .passed)]))
        summary.add(SuiteResult(name: "b", properties: [SuiteResult.Property(name: "left_to_client_lane", value: "3")]))
        summary.add(SuiteResult(name: "c", properties: [SuiteResult.Property(name: SuiteResult.blockedProperty, value: "D-x")]))
        summary.add(SuiteResult(name: "d", properties: [SuiteResult.Property(name: "left_to_server_lane", value: "0")]))
        #expect(summary.leftToOtherLanes == ["client": 7, "server": 0])
        #expect(
            summary.render(color: false)
                == "SKIP b: nothing for this lane: 3 steps left to the client lane\nSKIP c: blocked on open decisions (D-x)\nSKIP d: no step to check\n"
                + "accord: 4 cases (1 passed, 0 failed, 3 skipped), 1 step: 1 passed, 0 failed, 0 skipped, 0 errors; 7 steps left to the client lane; 1 case blocked on open decisions"
        )
    }
}
