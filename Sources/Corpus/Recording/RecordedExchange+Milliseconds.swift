extension RecordedExchange {
    /// The largest magnitude of `at_ms` and `duration_ms` a recording holds (about 285,000
    /// years), so that every value prints as a whole number of thousandths.
    public static let maximumMilliseconds = 9e15

    /// What a reader expects of `at_ms`, `duration_ms` and a HAR `time`, for its messages.
    public static let recordableMilliseconds = "a number of milliseconds of at most 9e15 in magnitude"

    /// Whether a number of milliseconds can be recorded: finite and at most
    /// `maximumMilliseconds` in magnitude.
    /// - Returns: true when a recording can hold it.
    public static func isRecordable(milliseconds: Double) -> Bool {
        // NaN compares false, so it is refused with the infinities.
        milliseconds.magnitude <= maximumMilliseconds
    }

    /// Milliseconds as the recording writes them: rounded to thousandths, three decimals
    /// unless whole (`1.500`, `12`, `0`).
    static func format(_ milliseconds: Double) -> String {
        var out: [UInt8] = []
        appendMilliseconds(milliseconds, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends milliseconds as `format(_:)` writes them, without building a string. A value a
    /// recording cannot hold, which only code setting the fields can make (readers refuse it),
    /// is written at the nearest bound, NaN as 0, rather than stopping the process.
    /// - Parameters:
    ///   - milliseconds: the value.
    ///   - out: the bytes to append to.
    static func appendMilliseconds(_ milliseconds: Double, to out: inout [UInt8]) {
        let bounded = milliseconds.isNaN ? 0 : min(max(milliseconds, -maximumMilliseconds), maximumMilliseconds)
        let thousandths = Int((bounded * 1000).rounded())
        if thousandths < 0 { out.append(UInt8(ascii: "-")) }
        let whole = thousandths.magnitude / 1000
        let fraction = Int(thousandths.magnitude % 1000)
        // Up to 15 digits make a small string, which allocates nothing.
        out.append(contentsOf: String(whole).utf8)
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
