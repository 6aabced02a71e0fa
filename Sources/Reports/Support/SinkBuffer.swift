/// The bytes a streaming report writer (JSON, HTML) gathers before handing them to its sink, and
/// whether the writer may still be used: a sink that refuses bytes ends the writer, and its
/// gathered bytes are dropped, so a half-written report is never completed as if whole.
struct SinkBuffer {
    /// The destination.
    let sink: ReportSink
    /// Bytes gathered and not yet handed on.
    var bytes: [UInt8] = []
    /// False once finished or after a refused write.
    var isOpen = true

    /// Hands the gathered bytes to the sink.
    /// - Throws: `ReportError.sink` when the sink refuses them; the buffer is then closed.
    mutating func flush() throws {
        if bytes.isEmpty { return }
        do {
            try bytes.withUnsafeBytes { try sink.write($0) }
            bytes.removeAll(keepingCapacity: true)
        } catch {
            isOpen = false
            bytes = []
            throw ReportError.sink(error)
        }
    }
}
