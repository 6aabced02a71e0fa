/// A closed set of names whose members are spelt once, as their case names: the name a member
/// goes by outside the code (a command-line value, an environment variable, a JUnit id, a
/// self-test mutant) is the case name in kebab-case, with a run of capitals kept as one word
/// (`newIDOnResend` is `new-id-on-resend`, `afterPushSent` is `after-push-sent`), the way
/// swift-argument-parser derives `--flag-names` from property names.
///
/// A conforming enum declares no raw values: `rawValue` and `init?(rawValue:)` come from here, so
/// a case and its name cannot drift apart, and the closed-set reader `read(_:at:unknown:malformed:what:)`
/// reads it like any other string set. The case name is read with `String(describing:)`, so a
/// conforming type must not customise its description (`CustomStringConvertible`,
/// `CustomDebugStringConvertible`, `TextOutputStreamable`); the tests of each conformer check that.
public protocol KebabNamed: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {
    /// What every name of the set starts with, e.g. `ps-` for the PowerSync service's faults; empty by default.
    static var namePrefix: String { get }
}

extension KebabNamed {
    /// No prefix.
    public static var namePrefix: String { "" }

    /// The member's name: `namePrefix` and the case name in kebab-case.
    public var rawValue: String { Self.namePrefix + KebabName.from(caseName: String(describing: self)) }

    /// The member of that name, or nil when the set has none.
    /// - Parameter rawValue: the name, as `rawValue` spells it.
    public init?(rawValue: String) {
        guard let member = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = member
    }
}

/// The camelCase to kebab-case conversion behind `KebabNamed`.
public enum KebabName {
    /// The kebab-case form of a camelCase identifier: a word starts at a capital that follows a
    /// lower-case letter or a digit, and at the last capital of a run when a lower-case letter
    /// follows it (`newIDOnResend` → `new-id-on-resend`, `URLValue` → `url-value`); every letter is
    /// lower-cased.
    /// - Parameter caseName: the identifier.
    /// - Returns: the kebab-case name.
    public static func from(caseName: String) -> String {
        let characters = Array(caseName)
        var name = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    name.append("-")
                }
            }
            name.append(contentsOf: character.lowercased())
        }
        return name
    }
}
