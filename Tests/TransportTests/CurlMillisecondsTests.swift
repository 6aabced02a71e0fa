import Testing

@testable import Transport

@Suite("Timeouts in seconds as libcurl's milliseconds")
struct CurlMillisecondsTests {
    @Test(
        "ordinary timeouts convert to the nearest whole millisecond, at least 1",
        arguments: [(10.0, 10_000), (0.1, 100), (2.5, 2_500), (2.007, 2_007), (86_400, 86_400_000), (0.0001, 1), (1.0006, 1_001)])
    func ordinary(seconds: Double, milliseconds: Int) {
        #expect(CurlMilliseconds.from(seconds: seconds) == milliseconds)
    }

    @Test(
        "zero, negative and NaN mean no limit; huge and infinite values are capped instead of trapping",
        arguments: [
            (0.0, 0), (-1.0, 0), (-Double.infinity, 0), (Double.nan, 0), (Double.infinity, CurlMilliseconds.maximum),
            (1e300, CurlMilliseconds.maximum), (Double(Int.max), CurlMilliseconds.maximum),
            (Double(Int32.max) / 1000, CurlMilliseconds.maximum),
        ])
    func extremes(seconds: Double, milliseconds: Int) {
        #expect(CurlMilliseconds.from(seconds: seconds) == milliseconds)
    }

    @Test("a transfer with an infinite connect timeout is set up without trapping")
    func infiniteConnectTimeout() throws {
        let handle = try #require(StreamingHandle())
        var request = StreamingRequest(method: "GET", url: "http://127.0.0.1:9/")
        request.connectTimeout = .infinity
        let state = handle.begin(request, sink: DiscardingSink())
        #expect(state.received == 0)
    }
}

/// A sink that takes and drops everything.
private final class DiscardingSink: StreamingResponseSink {
    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)]) -> Bool { true }
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
}
