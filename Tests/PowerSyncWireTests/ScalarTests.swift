import JSON
import PowerSyncWire
import Testing

@Suite("PowerSync scalars")
struct ScalarTests {
    private func checksum(_ literal: String) throws -> Checksum {
        try Checksum.read(try JSONParser.parse(literal), at: .root)
    }

    @Test("a checksum reads as u32, as the same bits in a negative i32, and as whole floats of either")
    func checksumForms() throws {
        #expect(try checksum("0").value == 0)
        #expect(try checksum("-1").value == UInt32.max)
        #expect(try checksum("-1.0").value == UInt32.max)
        #expect(try checksum("3573495687").value == 3_573_495_687)
        #expect(try checksum("3573495687.0").value == 3_573_495_687)
        #expect(try checksum("-721471609.0").value == 3_573_495_687)
        #expect(try checksum("4294967295").value == UInt32.max)
        #expect(try checksum("-2147483648").value == 2_147_483_648)
    }

    @Test("a checksum outside 32 bits, with a fraction, or not a number is refused at its pointer")
    func checksumRefusals() throws {
        for literal in ["4294967296", "-2147483649", "1.5", "\"7\"", "1e30", "99999999999999999999"] {
            #expect(throws: PowerSync.ShapeError.self, "\(literal)") { try checksum(literal) }
        }
        do {
            _ = try Checksum.read(.string("1"), at: JSONPointer(tokens: ["data", "0", "checksum"]))
            Issue.record("a string checksum decoded")
        } catch {
            #expect(error.pointer.description == "/data/0/checksum")
            #expect(error.kind == .malformedLine)
        }
    }

    @Test("checksums add with wrap-around")
    func wrappingSum() {
        #expect((Checksum(UInt32.max) + Checksum(1)) == .zero)
        #expect((Checksum(3) + Checksum(7)) == Checksum(10))
    }

    @Test("op ids are exact up to 2^63-1 and refuse signs, leading zeros and anything past it")
    func opIDs() {
        #expect(OpID.parse("9223372036854775807")?.value == Int64.max)
        #expect(OpID.parse("0")?.value == 0)
        for text in ["9223372036854775808", "-1", "+1", "01", "", "1.0", "1e3", " 1"] {
            #expect(OpID.parse(text) == nil, "\(text)")
        }
        #expect(OpID.parse("9007199254740993")?.description == "9007199254740993")
    }
}
