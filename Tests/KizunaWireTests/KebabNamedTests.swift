import JSON
import KizunaWire
import Testing

/// A set named only by its case names, to test the protocol away from the kit's own sets.
private enum Sample: KebabNamed {
    case plain
    case afterPushSent
    case newIDOnResend
    case completeStaleLastOpID
}

/// The same cases under a prefix.
private enum Prefixed: KebabNamed {
    case requestIDMovesBack
    static let namePrefix = "ps-"
}

/// `KebabNamed`: a case's name derived from its case name, and the member found by its name.
@Suite("kebab names")
struct KebabNamedTests {
    @Test(
        "camelCase becomes kebab-case, a run of capitals staying one word",
        arguments: [
            ("plain", "plain"),
            ("afterPushSent", "after-push-sent"),
            ("newIDOnResend", "new-id-on-resend"),
            ("completeStaleLastOpID", "complete-stale-last-op-id"),
            ("requestIDMovesBack", "request-id-moves-back"),
            ("hlcIgnored", "hlc-ignored"),
            ("URLValue", "url-value"),
            ("userID", "user-id"),
            ("ID", "id"),
            ("page2Limit", "page2-limit"),
            ("http2Frame", "http2-frame"),
            ("v2Value", "v2-value"),
            ("", ""),
        ])
    func conversion(caseName: String, expected: String) {
        #expect(KebabName.from(caseName: caseName) == expected)
    }

    @Test("a member's raw value is its kebab name, and the name finds the member")
    func roundTrip() throws {
        #expect(Sample.allCases.map(\.rawValue) == ["plain", "after-push-sent", "new-id-on-resend", "complete-stale-last-op-id"])
        for member in Sample.allCases {
            #expect(Sample(rawValue: member.rawValue) == member)
        }
        #expect(Sample(rawValue: "afterPushSent") == nil)
        #expect(Sample(rawValue: "after-push-sent ") == nil)
        #expect(Sample(rawValue: "") == nil)
    }

    @Test("the prefix stands before every name, and a name without it finds nothing")
    func prefix() {
        #expect(Prefixed.requestIDMovesBack.rawValue == "ps-request-id-moves-back")
        #expect(Prefixed(rawValue: "ps-request-id-moves-back") == .requestIDMovesBack)
        #expect(Prefixed(rawValue: "request-id-moves-back") == nil)
    }

    @Test("the closed-set reader reads a kebab-named set and refuses a name outside it")
    func reader() throws {
        let pointer = JSONPointer.root.appending("fault")
        let read = try Sample.read(
            .string("new-id-on-resend"), at: pointer, unknown: .unknownOp, malformed: .json, what: "fault")
        #expect(read == .newIDOnResend)
        let unknown = #expect(throws: WireError.self) {
            try Sample.read(.string("newIDOnResend"), at: pointer, unknown: .unknownOp, malformed: .json, what: "fault")
        }
        #expect(unknown?.kind == .unknownOp)
        let malformed = #expect(throws: WireError.self) {
            try Sample.read(.bool(true), at: pointer, unknown: .unknownOp, malformed: .json, what: "fault")
        }
        #expect(malformed?.kind == .json)
    }
}
