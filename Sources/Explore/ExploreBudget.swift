/// How much `accord explore` may do: a number of scenarios, or a time (`60s`, `10m`, `1h`) after
/// which no new scenario starts. A count gives the same result on every machine; a time gives
/// whatever fits.
package enum ExploreBudget: Sendable, Hashable, CustomStringConvertible {
    case scenarios(Int)
    case seconds(Int)

    /// Reads `500` (scenarios) or `90s`, `10m`, `1h`; nil for anything else.
    package init?(parsing text: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        if let last = text.last, let scale = units[last] {
            guard let number = Int(text.dropLast()), number > 0, number <= 7 * 24 * 3600 / scale else { return nil }
            self = .seconds(number * scale)
        } else {
            guard let count = Int(text), count > 0 else { return nil }
            self = .scenarios(count)
        }
    }

    package var description: String {
        switch self {
        case .scenarios(let count): "\(count) scenarios"
        case .seconds(let seconds): "\(seconds) s"
        }
    }
}
