import Capture
import Corpus
import Foundation
import JSON
import Synchronization
import Testing

@Suite("Recording writer: caller-thread writes, background sync, close")
struct RecordingWriterStressTests {
    static let header = RecordingHeader(tool: "t", startedAt: "s", upstream: "u", redaction: [:])

    /// Runs `body(thread)` on `count` real threads at once and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for thread in 0..<count {
            group.enter()
            Thread.detachNewThread {
                body(thread)
                group.leave()
            }
        }
        group.wait()
    }

    /// The exchange lines after the header, each parsed.
    static func lines(_ path: String) throws -> [JSONValue] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.last == 0x0A)
        return try bytes.split(separator: 0x0A).dropFirst().map { try JSONParser.parse(Array($0)) }
    }

    @Test("append(encoded:) refuses what does not start an object, or holds a line feed, and writes nothing")
    func refusesNonObjects() throws {
        let path = RecordingWriterTests.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: Self.header)
        for bad in ["", "{}", "[]", "[1,2]", "\"{x\"", "1", "null", " {\"a\":1}", "{\"a\":1}\n{\"b\":2}"] {
            #expect(!writer.append(encoded: Array(bad.utf8)), "\(bad)")
        }
        #expect(!writer.append(encodedPieces: [Array("{\"a\":".utf8), Array("\"x\ny\"}".utf8)]), "a line feed in a later piece")
        #expect(writer.written == 0)
        #expect(writer.append(encoded: RecordedExchange(number: 9, rpc: "http", request: "ok", response: .null).encodedMembers()))
        writer.close()
        let lines = try Self.lines(path)
        #expect(lines.count == 1)
        #expect(lines.first?["exchange"] == 1)
        #expect(lines.first?["request"] == "ok")
    }

    @Test("16 threads × 200 appends of bodies up to 200 KB: numbers 1...N in file order, each body once")
    func manyThreads() throws {
        let path = RecordingWriterTests.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: Self.header, syncInterval: .milliseconds(5))
        let (threads, perThread) = (16, 200)
        let refused = Atomic<Int>(0)
        Self.onThreads(threads) { thread in
            var rng = RecorderRNG(state: UInt64(thread) &* 0x1234_5678_9ABC)
            for index in 0..<perThread {
                // Mostly small bodies, some up to 200 KB: the writes must not interleave whatever their size.
                let size = rng.chance(2) ? rng.below(200_000) : rng.below(2_000)
                let body = JSONValue.string("\(thread)-\(index)-" + String(repeating: "é\"", count: size / 3))
                let exchange = RecordedExchange(number: 0, rpc: "push", request: body, response: .null)
                let durability: RecordingWriter.Durability = index % 50 == 0 ? .synced : (index % 2 == 0 ? .written : .queued)
                let ok =
                    index % 3 == 0
                    ? writer.append(exchange, durability: durability)
                    : writer.append(encoded: exchange.encodedMembers(request: nil), durability: durability)
                if !ok { refused.add(1, ordering: .relaxed) }
            }
        }
        writer.close()
        #expect(refused.load(ordering: .relaxed) == 0)
        #expect(writer.failure == nil)
        let lines = try Self.lines(path)
        #expect(lines.compactMap { $0["exchange"]?.numberValue?.intValue } == Array(1...(threads * perThread)))
        var seen: [String: Int] = [:]
        for line in lines {
            guard let text = line["request"]?.stringValue else {
                Issue.record("request missing")
                continue
            }
            let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
            #expect(parts.count == 3 && parts[2].utf8.count % 3 == 0)
            seen["\(parts[0])-\(parts[1])", default: 0] += 1
        }
        #expect(seen.count == threads * perThread && seen.values.allSatisfy { $0 == 1 })
        #expect(!writer.append(RecordedExchange(number: 0, rpc: "http", request: .null, response: .null)))
    }

    @Test("close() returns at once with a 10 s sync interval, syncs, and later appends are refused")
    func promptClose() throws {
        let path = RecordingWriterTests.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for appends in [0, 1, 3] {
            let writer = try RecordingWriter(path: path + "\(appends)", header: Self.header, syncInterval: .seconds(10))
            defer { try? FileManager.default.removeItem(atPath: path + "\(appends)") }
            for index in 0..<appends {
                #expect(writer.append(RecordedExchange(number: 0, rpc: "http", request: .string("r\(index)"), response: .null)))
                Thread.sleep(forTimeInterval: 0.02)  // the syncer has synced once and now sleeps out its interval
            }
            let clock = ContinuousClock()
            let elapsed = clock.measure { writer.close() }
            #expect(elapsed < .seconds(1), "close took \(elapsed) after \(appends) appends")
            writer.close()
            #expect(!writer.append(RecordedExchange(number: 0, rpc: "http", request: .null, response: .null)))
            #expect(!writer.append(encoded: Array(#"{"a":1}"#.utf8)))
            #expect(try Self.lines(path + "\(appends)").count == appends)
        }
    }

    @Test("appends racing close(): each accepted exchange is a line, each refused one is not")
    func racingClose() throws {
        for round in 0..<100 {
            let path = RecordingWriterTests.file()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try RecordingWriter(path: path, header: Self.header, syncInterval: .milliseconds(1))
            let accepted = Mutex<Set<String>>([])
            Self.onThreads(5) { thread in
                if thread == 0 {
                    Thread.sleep(forTimeInterval: 0.002 * Double(round % 5))
                    writer.close()
                    return
                }
                for index in 0..<100 {
                    let id = "\(thread)-\(index)"
                    let durability: RecordingWriter.Durability = [.queued, .written, .synced][index % 3]
                    let exchange = RecordedExchange(number: 0, rpc: "http", request: .string(id), response: .null)
                    if writer.append(exchange, durability: durability) { accepted.withLock { _ = $0.insert(id) } }
                }
            }
            let lines = try Self.lines(path)
            let written = Set(lines.compactMap { $0["request"]?.stringValue })
            #expect(lines.compactMap { $0["exchange"]?.numberValue?.intValue } == Array(0..<lines.count).map { $0 + 1 })
            let claimed = accepted.withLock { $0 }
            #expect(claimed.isSubset(of: written), "accepted but missing: \(claimed.subtracting(written).sorted())")
            // A .synced append syncs before close() may close the descriptor: no EBADF, no
            // `failure` after a clean close, and every line written was reported written.
            #expect(writer.failure == nil, "a clean close is no write failure")
            #expect(written.isSubset(of: claimed), "written but reported refused: \(written.subtracting(claimed).sorted())")
        }
    }
}
