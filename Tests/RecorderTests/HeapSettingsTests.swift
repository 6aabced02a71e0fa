import Testing

@testable import Recorder

@Suite("Heap settings")
struct HeapSettingsTests {
    @Test("glibc takes both thresholds, and the map threshold is above a recorded body's default limit")
    func taken() throws {
        #expect(HeapSettings.keepFreedMemory())
        let limit = try RecorderConfiguration(upstream: "http://127.0.0.1:1", output: "/tmp/unused.jsonl").recordedBodyLimit
        #expect(Int(HeapSettings.mapThreshold) > limit)
        #expect(HeapSettings.trimThreshold >= HeapSettings.mapThreshold)
    }
}
