/// Seconds as the whole milliseconds of libcurl's `*_TIMEOUT_MS` options, for any `Double` a
/// caller can pass: the conversion never traps.
enum CurlMilliseconds {
    /// The largest value handed to libcurl: about 24.8 days, longer than any transfer waits.
    static let maximum = Int(Int32.max)

    /// The milliseconds for a timeout in seconds.
    ///
    /// Zero, a negative value and NaN give 0, libcurl's "no limit" (as `0` always meant here);
    /// others round to the nearest millisecond (2.007 s is 2,007 ms, whatever the binary
    /// fraction), at least 1, so that a tiny limit stays a limit; anything
    /// from `maximum` milliseconds on, infinity included, gives `maximum`.
    /// - Parameter seconds: the timeout.
    /// - Returns: whole milliseconds in `0...maximum`.
    static func from(seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        let milliseconds = max(1, (seconds * 1000).rounded())
        guard milliseconds < Double(maximum) else { return maximum }
        return Int(milliseconds)
    }
}
