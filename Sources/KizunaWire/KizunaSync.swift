/// KizunaSync as a namespace (issue 38), declared by the protocol's lowest module: a module that
/// holds a piece of the protocol's own — its server contract (`KizunaSync.ServerTarget`), its HTTP
/// target, the lanes' profile and its plays, the driver SDK's engine protocol — declares it as a
/// member, so a piece both protocols have is `KizunaSync.X` beside `PowerSync.X`, never two
/// top-level twins, and a third protocol is a third namespace.
public enum KizunaSync: Sendable {}
