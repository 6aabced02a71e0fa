internal import CCurl

/// The one unpacking of libcurl's write and header callbacks (`accord_curl_write_callback`): the
/// receiver the callback's context points at is given the delivered bytes as a buffer.
enum CurlWrite {
    /// Hands the bytes libcurl delivered to the receiver the context points at.
    /// - Parameters:
    ///   - data: the bytes, as libcurl passes them.
    ///   - size: the size of one item (libcurl passes 1).
    ///   - count: how many items.
    ///   - context: an unretained `Receiver`, as set with the callback's data option.
    ///   - receive: what the receiver does with the bytes.
    /// - Returns: what `receive` returns, or nil when libcurl passed no data or no context.
    static func deliver<Receiver: AnyObject, Result>(
        _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?,
        to receive: (Receiver, UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        guard let data, let context else { return nil }
        let receiver = Unmanaged<Receiver>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { receive(receiver, UnsafeBufferPointer(start: $0, count: length)) }
    }
}
