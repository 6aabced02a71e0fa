/// A destination for report bytes; the caller owns the file or stream behind it.
public protocol ReportSink: AnyObject {
    /// Takes the next chunk of bytes.
    /// - Throws: when the destination cannot take them.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}
