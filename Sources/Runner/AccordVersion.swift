/// The version of Accord, reported in suite properties, report headers, recording headers and
/// `accord --version`.
public enum AccordVersion {
    /// The version string, e.g. "0.1.0".
    public static let current = "0.1.0"
}
