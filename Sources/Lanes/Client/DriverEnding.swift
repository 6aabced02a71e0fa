import Foundation

/// How a driver process ended, from its termination reason and status (not from any text).
public enum DriverEnding: Sendable, Hashable {
    /// It exited with a status (0 is a clean exit).
    case exited(status: Int32)
    /// It died of a signal.
    case signalled(Int32)
    /// The platform reported another kind of ending.
    case abnormal

    /// Whether it died of SIGKILL, directly or as the shell wrapper's exit status 128 + SIGKILL.
    public var isKill: Bool {
        switch self {
        case .signalled(let signal): signal == SIGKILL
        case .exited(let status): status == 128 + SIGKILL
        case .abnormal: false
        }
    }

    /// A description of an unclean ending for the report, or nil for exit status 0.
    public var description: String? {
        switch self {
        case .exited(status: 0): nil
        case .exited(let status): "the driver exited with status \(status)"
        case .signalled(let signal): "the driver died of signal \(signal)"
        case .abnormal: "the driver ended abnormally"
        }
    }
}
