/// Plain decimal renderings of counts and durations, shared by the XML and JSON writers.
///
/// Durations are written with six fraction digits and never in exponent form, so they match
/// JUnit's `SUREFIRE_TIME` pattern and read the same in every report.
enum DecimalText {
    /// The largest duration rendered, in seconds; larger (and infinite) values are clamped to it.
    static let maximumSeconds = 1e12

    /// Appends a duration as seconds with six fraction digits, e.g. `0.001234`.
    /// - Parameters:
    ///   - seconds: the duration; negative and NaN values count as zero.
    ///   - out: the buffer to append to.
    static func appendSeconds(_ seconds: Double, to out: inout [UInt8]) {
        let clamped = seconds > 0 ? min(seconds, maximumSeconds) : 0
        let micros = Int64((clamped * 1_000_000).rounded())
        appendInteger(Int(micros / 1_000_000), to: &out)
        out.append(UInt8(ascii: "."))
        var fraction = Int(micros % 1_000_000)
        let start = out.count
        for _ in 0..<6 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + fraction % 10))
            fraction /= 10
        }
        out[start..<out.count].reverse()
    }

    /// Appends an integer in decimal.
    /// - Parameters:
    ///   - value: the integer.
    ///   - out: the buffer to append to.
    static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        let start = out.count
        var magnitude = value.magnitude
        repeat {
            out.append(UInt8(truncatingIfNeeded: 0x30 + magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { out.append(UInt8(ascii: "-")) }
        out[start..<out.count].reverse()
    }

    /// Renders a duration as `appendSeconds` does.
    /// - Parameter seconds: the duration.
    /// - Returns: the text, e.g. `"12.500000"`.
    static func seconds(_ seconds: Double) -> String {
        var out: [UInt8] = []
        appendSeconds(seconds, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
