/// A seeded random number generator (SplitMix64, Steele, Lea and Flood 2014): the same seed
/// gives the same scenarios on every machine and Swift release, which the standard library's
/// generator does not promise.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { self.state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of scenario `index` of a run seeded with `seed`: scenario i is the same whatever
    /// ran before it, so a budget, a shard or a worker never changes what scenario i is.
    package static func seed(of index: Int, in seed: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// True with probability `percent` in 100.
    package mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One of `choices`, which must not be empty.
    package mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}
