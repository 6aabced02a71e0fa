/// A server-made time as the wire carries it (a tombstone's `deleted_at`): RFC 3339 in UTC,
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)`. Ordered by the instant it names, so
/// `…05.1Z`, `…05.100Z` and `…05.1+00:00` are one time; any other offset is refused, because a
/// server's timestamps are compared with each other and with the runner's clock.
public struct UTCTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text as received.
    public let text: String
    /// YYYYMMDDhhmmss and nine fraction digits: the instant, byte-comparable.
    private let instant: [UInt8]

    /// Parses RFC 3339 UTC text; nil for anything else (another offset, a bad field, a date
    /// that does not exist).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, let instant = Self.instant(bytes) else { return nil }
        self.text = text
        self.instant = instant
    }

    /// Makes a timestamp from calendar fields, milliseconds precision, written with `Z`.
    /// - Parameters:
    ///   - year: 1…9999.
    ///   - month: 1…12.
    ///   - day: 1…31 (checked against the month).
    ///   - hour: 0…23.
    ///   - minute: 0…59.
    ///   - second: 0…59.
    ///   - millisecond: 0…999.
    /// - Returns: the timestamp, or nil when a field is out of range.
    public static func of(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int = 0) -> UTCTimestamp? {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        guard (0...999).contains(millisecond) else { return nil }
        return UTCTimestamp(
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z")
    }

    /// The text.
    public var description: String { text }

    /// Equal when they name the same instant, whatever their spelling.
    /// - Parameters:
    ///   - lhs: one time.
    ///   - rhs: another.
    /// - Returns: whether the instants are equal.
    public static func == (lhs: UTCTimestamp, rhs: UTCTimestamp) -> Bool { lhs.instant == rhs.instant }

    /// Hashes the instant.
    public func hash(into hasher: inout Hasher) { hasher.combine(instant) }

    /// Orders by instant.
    /// - Parameters:
    ///   - lhs: one time.
    ///   - rhs: another.
    /// - Returns: whether `lhs` is earlier.
    public static func < (lhs: UTCTimestamp, rhs: UTCTimestamp) -> Bool { lhs.instant.lexicographicallyPrecedes(rhs.instant) }

    private static func instant(_ bytes: [UInt8]) -> [UInt8]? {
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
            let hour = digits(11..<13), let minute = digits(14..<16), let second = digits(17..<19),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var fraction: [UInt8] = []
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction.append(bytes[index])
                index += 1
            }
            guard !fraction.isEmpty, fraction.count <= 9 else { return nil }
        }
        let zone = Array(bytes[index...])
        guard zone == Array("Z".utf8) || zone == Array("+00:00".utf8) else { return nil }
        while fraction.count < 9 { fraction.append(UInt8(ascii: "0")) }
        return Array(bytes[0..<4]) + Array(bytes[5..<7]) + Array(bytes[8..<10]) + Array(bytes[11..<13]) + Array(bytes[14..<16])
            + Array(bytes[17..<19]) + fraction
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
