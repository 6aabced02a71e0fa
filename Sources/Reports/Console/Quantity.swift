/// A count with its noun, as every report line writes one: "1 verdict", "2 verdicts".
public enum Quantity {
    /// `value` and the noun it takes; `many` defaults to `one` + "s".
    public static func of(_ value: Int, _ one: String, _ many: String? = nil) -> String {
        "\(value) \(value == 1 ? one : many ?? one + "s")"
    }
}
