import Testing

@testable import KizunaWire

@Suite("UTCTimestamp: RFC 3339 in UTC")
struct UTCTimestampTests {
    @Test(
        "accepts UTC spellings: Z or +00:00, any fraction up to nanoseconds, leap days and seconds",
        arguments: [
            "2026-01-01T00:00:03.000Z", "2026-12-01T20:11:05.123456+00:00", "2026-12-01T20:11:05Z", "2024-02-29T23:59:60.5Z",
            "2000-02-29T00:00:00.123456789Z",
        ])
    func accepts(_ text: String) {
        #expect(UTCTimestamp(text)?.text == text)
    }

    @Test(
        "refuses other offsets, bad fields and dates that do not exist",
        arguments: [
            "2026-01-01T00:00:03.000+01:00", "2026-01-01T00:00:03.000-00:00", "2026-01-01 00:00:03Z", "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
            "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567891Z", "2026-01-01T00:00:00", "2026-1-01T00:00:00Z", "", "now",
        ])
    func refuses(_ text: String) {
        #expect(UTCTimestamp(text) == nil)
    }

    @Test("compares instants, not spellings")
    func ordersByInstant() throws {
        let a = try #require(UTCTimestamp("2026-12-01T20:11:05.1Z"))
        let b = try #require(UTCTimestamp("2026-12-01T20:11:05.100000+00:00"))
        let c = try #require(UTCTimestamp("2026-12-01T20:11:05.100001Z"))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a < c && b < c)
        #expect(try #require(UTCTimestamp("2026-01-01T00:00:09.000Z")) < (try #require(UTCTimestamp("2026-01-01T00:00:10.000Z"))))
    }

    @Test("builds from fields, refusing out-of-range ones")
    func fromFields() {
        #expect(UTCTimestamp.of(year: 2026, month: 12, day: 1, hour: 20, minute: 5, second: 9)?.text == "2026-12-01T20:05:09.000Z")
        #expect(UTCTimestamp.of(year: 2026, month: 2, day: 30, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTimestamp.of(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 1000) == nil)
    }
}
