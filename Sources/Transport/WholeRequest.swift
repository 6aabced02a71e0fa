internal import CCurl

/// One request sent whole on an easy handle, as the blocking session (`CurlSession`) and the
/// NDJSON reader (`LineStream`) both send theirs: the URL and method, the header lines (with
/// libcurl's `Expect` default suppressed), no signals, no proxy, and the body for any method but
/// GET. What each reads back, and its timeouts, it sets itself in `perform`.
enum WholeRequest {
    /// Sets the request's options on `handle` and runs `perform` while the header list and the
    /// body they point at are alive.
    /// - Parameters:
    ///   - handle: a reset easy handle.
    ///   - method: the method, e.g. "POST".
    ///   - url: the absolute URL.
    ///   - headers: `name: value` fields in order.
    ///   - body: the body.
    ///   - perform: sets the caller's own options and performs the transfer.
    /// - Returns: what `perform` returns.
    static func with(
        _ handle: UnsafeMutableRawPointer, method: String, url: String, headers: [(String, String)], body: [UInt8],
        _ perform: () -> CURLcode
    ) -> CURLcode {
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        list = curl_slist_append(list, "Expect:")
        defer { curl_slist_free_all(list) }
        var payload = body
        return payload.withUnsafeMutableBytes { bytes in
            _ = accord_curl_setopt_string(handle, CURLOPT_URL, url)
            _ = accord_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
            _ = accord_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
            _ = accord_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = accord_curl_setopt_string(handle, CURLOPT_NOPROXY, "*")
            if method != "GET" {
                _ = accord_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                if let base = bytes.baseAddress {
                    _ = accord_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, base)
                } else {
                    _ = accord_curl_setopt_string(handle, CURLOPT_POSTFIELDS, "")
                }
            }
            return perform()
        }
    }
}
