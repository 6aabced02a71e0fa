import JSON
import KizunaWire
import Testing

@Suite("Pointed errors")
struct PointedErrorTests {
    /// A family of kinds of its own, as a module outside KizunaWire declares one.
    struct Colour: PointedErrorKind {
        var protocolCode: String
        var description: String { protocolCode.lowercased() }
    }

    @Test("an error reads as its kind's protocol code, the pointer and the detail")
    func description() {
        let error = PointedError(Colour(protocolCode: "RED"), at: JSONPointer.root.appending("paint").appending(0), "too bright")
        #expect(error.description == "RED at /paint/0: too bright")
        #expect(error.protocolCode == "RED")
    }

    @Test("an error at the message itself names the pointer /")
    func rootPointer() {
        #expect(PointedError(Colour(protocolCode: "RED"), at: .root, "no paint").description == "RED at /: no paint")
    }

    @Test("two errors are equal when kind, pointer and detail are")
    func equality() {
        let red = Colour(protocolCode: "RED")
        #expect(PointedError(red, at: .root, "x") == PointedError(red, at: .root, "x"))
        #expect(PointedError(red, at: .root, "x") != PointedError(red, at: .root.appending("a"), "x"))
        #expect(PointedError(red, at: .root, "x") != PointedError(Colour(protocolCode: "BLUE"), at: .root, "x"))
    }

    @Test("WireError is the wire family of pointed errors and keeps its codes")
    func wireFamily() {
        let error = WireError(.unknownSignal, at: .root.appending("signal"), "unknown signal \"SLOW_DOWN\"")
        #expect(error.kind == .unknownSignal)
        #expect(error.description == #"UNKNOWN_SIGNAL at /signal: unknown signal "SLOW_DOWN""#)
        #expect(error.relocated(under: .root.appending("response")).pointer.description == "/response/signal")
    }
}
