internal import CLibXML2

/// One-time libxml2 set-up shared by the JUnit writer and the schema validator.
enum LibXML2 {
    /// Evaluated once, on first use, before any other libxml2 call.
    static let initialized: Void = xmlInitParser()
}

/// Holds a report sink for libxml2's output callbacks, and what went wrong inside them.
final class SinkBox {
    /// Where the bytes go.
    let sink: ReportSink
    /// The first error the sink threw; later writes are refused.
    var error: (any Error)?
    /// When set, bytes are dropped instead of written (used when abandoning a document).
    var discarding = false

    init(sink: ReportSink) { self.sink = sink }

    /// Makes a libxml2 output buffer whose bytes go to `box`'s sink.
    ///
    /// The buffer keeps `box` alive through an `Unmanaged` retain that its close callback
    /// releases, so the sink outlives every byte libxml2 still holds.
    /// - Parameter box: the sink holder.
    /// - Returns: the buffer, or nil when libxml2 could not make one.
    static func outputBuffer(for box: SinkBox) -> xmlOutputBufferPtr? {
        let context = Unmanaged.passRetained(box).toOpaque()
        let buffer = xmlOutputBufferCreateIO(
            { context, bytes, length in
                guard let context else { return -1 }
                let box = Unmanaged<SinkBox>.fromOpaque(context).takeUnretainedValue()
                if box.discarding { return length }
                if box.error != nil { return -1 }
                do {
                    try box.sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
                    return length
                } catch {
                    box.error = error
                    return -1
                }
            },
            { context in
                guard let context else { return -1 }
                Unmanaged<SinkBox>.fromOpaque(context).release()
                return 0
            },
            context, nil)
        if buffer == nil { Unmanaged<SinkBox>.fromOpaque(context).release() }
        return buffer
    }
}
