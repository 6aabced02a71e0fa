import Corpus

/// How an option's text becomes a typed value: a pure reading, and what it expects, which a
/// refusal names beside the option ("--jobs takes a positive number, found 'x'").
struct OptionConversion<Value: Sendable>: Sendable {
    /// What the option takes, e.g. "a positive number".
    var expected: String
    /// The value, or nil when the text is not one.
    var read: @Sendable (String) -> Value?
}

extension OptionConversion where Value == Int {
    /// A whole number of at least 1.
    static let positive = OptionConversion(expected: "a positive number") { text in Int(text).flatMap { $0 >= 1 ? $0 : nil } }

    /// A whole number in `range`.
    /// - Parameter range: the numbers accepted.
    /// - Returns: the conversion.
    static func number(in range: ClosedRange<Int>) -> OptionConversion {
        OptionConversion(expected: "a number from \(range.lowerBound) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A byte count, "1048576", "64K", "64M" or "1G" (KiB, MiB, GiB; "iB" or "B" may follow
    /// the letter), of at least `minimum`.
    /// - Parameters:
    ///   - minimum: the smallest count accepted.
    ///   - expected: what the refusal says the option takes.
    /// - Returns: the conversion.
    static func bytes(atLeast minimum: Int, expected: String) -> OptionConversion {
        OptionConversion(expected: expected) { text in ByteCount.parse(text).flatMap { $0 >= minimum ? $0 : nil } }
    }
}

extension OptionConversion where Value == Double {
    /// A finite number of seconds in `range`, or exactly 0 when `zero` allows it.
    /// - Parameters:
    ///   - range: the seconds accepted.
    ///   - zero: whether 0 is accepted besides the range.
    ///   - expected: what the refusal says the option takes.
    /// - Returns: the conversion.
    static func seconds(in range: ClosedRange<Double>, orZero zero: Bool = false, expected: String) -> OptionConversion {
        OptionConversion(expected: expected) { text in
            guard let seconds = Double(text), seconds.isFinite else { return nil }
            return (zero && seconds == 0) || range.contains(seconds) ? seconds : nil
        }
    }
}

extension OptionConversion where Value == Shard {
    /// `i/n` with 1 ≤ i ≤ n.
    static let shard = OptionConversion(expected: "i/n with 1 ≤ i ≤ n") { text in Shard(text) }
}

extension OptionConversion where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enum's raw values.
    /// - Parameter aliases: other spellings accepted, e.g. an old name.
    /// - Returns: the conversion.
    static func choice(aliases: [String: Value] = [:]) -> OptionConversion {
        let names = Value.allCases.map(\.rawValue)
        let expected = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        return OptionConversion(expected: expected) { text in Value(rawValue: text) ?? aliases[text] }
    }
}

/// This run's shard of the cases: the `index`-th of `count`, 1-based.
struct Shard: Sendable, Equatable {
    /// Which shard, from 1.
    var index: Int
    /// How many shards.
    var count: Int

    /// Makes a shard.
    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Reads "i/n".
    /// - Parameter text: the option's value.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }
}

/// Byte counts with a K, M or G suffix, as `--max-line` and `--buffer-budget` take them.
enum ByteCount {
    /// Digits, optionally followed by K, M or G (KiB, MiB, GiB; "iB" or "B" may follow the
    /// letter); nil when it is not one or does not fit.
    /// - Returns: the bytes.
    static func parse(_ text: String) -> Int? {
        var digits = Substring(text)
        var unit = 1
        for (suffix, scale) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] {
            for spelling in [suffix + "iB", suffix + "B", suffix] where digits.uppercased().hasSuffix(spelling.uppercased()) {
                digits = digits.dropLast(spelling.count)
                unit = scale
                break
            }
            if unit != 1 { break }
        }
        guard !digits.isEmpty, digits.utf8.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let value = Int(digits)
        else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : product
    }
}
