extension Checksum {
    /// The bucket sum after one more op, as the SDK core counts it: PUT, REMOVE and MOVE add
    /// their checksum (wrapping u32), a CLEAR replaces the sum with its own.
    /// - Parameter op: the op.
    /// - Returns: the new sum.
    public func adding(_ op: OplogEntry) -> Checksum { op.op == .clear ? op.checksum : self + op.checksum }
}
