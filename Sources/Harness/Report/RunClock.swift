/// The run's one reading of elapsed time, in the seconds every report carries.
package enum RunClock {
    /// Seconds since `start`, with sub-second precision.
    /// - Parameter start: when the timed work began.
    /// - Returns: the elapsed seconds.
    package static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
