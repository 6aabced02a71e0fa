import CLinux
import Foundation
import Testing

@testable import Capture
@testable import Corpus

@Suite("Recording writer: disk blocks reserved ahead")
struct RecordingWriterReservationTests {
    /// The file's size and the bytes of disk blocks it holds.
    static func usage(_ path: String) -> (size: Int, allocated: Int) {
        var status = stat()
        guard stat(path, &status) == 0 else { return (-1, -1) }
        return (Int(status.st_size), Int(status.st_blocks) * 512)
    }

    /// Whether the file system under `directory` reserves blocks past a file's end.
    static func canReserve(in directory: String) -> Bool {
        let probe = directory + "accord-reserve-probe-\(UUID().uuidString)"
        let fd = open(probe, O_WRONLY | O_CREAT, 0o644)
        defer {
            if fd >= 0 { close(fd) }
            unlink(probe)
        }
        return fd >= 0 && accord_reserve_beyond_end(fd, 0, 1 << 20) == 0
    }

    @Test("blocks past the end are reserved while the recording is open, outside its size, and given back at close")
    func reservedThenReleased() throws {
        let path = RecordingWriterTests.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: RecordingHeader(tool: "t", startedAt: "s", upstream: "u", redaction: [:]))
        let text = String(repeating: "x", count: 3000)
        for _ in 0..<40 { #expect(writer.append(RecordedExchange(number: 0, rpc: "http", request: .string(text), response: .null))) }
        let open = Self.usage(path)
        #expect(open.size > 40 * 3000)
        if Self.canReserve(in: NSTemporaryDirectory()) {
            // Most of a step beyond what was written, not counted in the size the reader sees.
            #expect(open.allocated >= open.size + RecordingWriter.reservationStep / 2)
        } else {
            #expect(open.allocated < open.size + RecordingWriter.reservationStep)
        }
        writer.close()
        let closed = Self.usage(path)
        #expect(closed.size == open.size)
        #expect(closed.allocated < closed.size + 64 * 1024)
        let (_, exchanges) = try RecorderHarness.read(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(exchanges.map(\.number) == Array(1...40))
    }

    @Test("a line longer than the step is reserved whole before it is written")
    func longLine() throws {
        let path = RecordingWriterTests.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: RecordingHeader(tool: "t", startedAt: "s", upstream: "u", redaction: [:]))
        let text = String(repeating: "y", count: RecordingWriter.reservationStep + 100_000)
        #expect(writer.append(RecordedExchange(number: 0, rpc: "http", request: .string(text), response: .null)))
        let open = Self.usage(path)
        if Self.canReserve(in: NSTemporaryDirectory()) {
            #expect(open.allocated >= open.size + RecordingWriter.reservationStep)
        }
        writer.close()
        let (_, exchanges) = try RecorderHarness.read(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(exchanges.first?.request == .string(text))
    }
}
