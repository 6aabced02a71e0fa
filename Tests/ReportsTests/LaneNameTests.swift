import Reports
import Testing

/// The lane a suite names travels typed (issue 38): written by one constructor, read back by one
/// accessor, with the values reports have always carried.
@Suite("Lane names")
struct LaneNameTests {
    @Test("each lane writes the value JUnit, JSON and HTML carry, and reads back as itself")
    func roundTrip() {
        #expect(
            LaneName.allCases.map(\.rawValue) == [
                "server", "client", "client-kill-matrix", "client-storage-faults", "check", "diff", "explore",
            ])
        for lane in LaneName.allCases {
            let properties = [SuiteResult.Property(name: "target", value: "t"), .lane(lane)]
            #expect(properties.lane == lane)
            #expect(properties[1] == SuiteResult.Property(name: "lane", value: lane.rawValue))
        }
    }

    @Test("no lane property, or a value Accord does not know, reads as none")
    func unknown() {
        #expect([SuiteResult.Property(name: "target", value: "t")].lane == nil)
        #expect([SuiteResult.Property(name: "lane", value: "kill-matrix")].lane == nil)
    }
}
