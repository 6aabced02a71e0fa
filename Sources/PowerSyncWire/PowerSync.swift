/// PowerSync as a namespace, declared by its wire module as `KizunaSync` is by KizunaWire: its
/// wire's own pieces (`PowerSync.Surface`, `PowerSync.ShapeError`) and every other module's
/// PowerSync pieces (its corpus format, server contract, targets, lanes' profile, reference
/// service and client) are members.
public enum PowerSync: Sendable {}
