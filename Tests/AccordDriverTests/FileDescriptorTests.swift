import AccordDriver
import Corpus
import Foundation
import KizunaWire
import Testing

@Suite("File-descriptor I/O")
struct FileDescriptorTests {
    @Test("the loop reads requests from a pipe descriptor and writes responses to another, stopping at EOF")
    func pipes() async throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0)
        #expect(pipe(&output) == 0)
        let requests = [DriverRequest.hello(id: 1), .open(id: 2, Fixture.open), .write(id: 3, WriteRequest(mutation: Fixture.insert))]
        let bytes = requests.flatMap(\.line)
        #expect(bytes.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) } == bytes.count)
        close(input[1])
        let engine = ToyEngine()
        let ending = await DriverLoop.run(
            engine: engine, input: FileDescriptorInput(descriptor: input[0]), output: FileDescriptorOutput(descriptor: output[1]))
        close(input[0])
        close(output[1])
        #expect(ending == .endOfInput)
        #expect(await engine.closes == 1)
        var reader = DriverLineReader(FileDescriptorInput(descriptor: output[0]))
        var answers: [DriverResponse] = []
        for request in requests {
            guard case .line(let line) = await reader.next() else { break }
            answers.append(try DriverResponse(line: line, answering: request.body.op))
        }
        #expect(await reader.next() == nil)
        close(output[0])
        #expect(answers.map(\.id) == [1, 2, 3])
        #expect(answers.last?.result == .written(WriteResult(outboxDepth: 1)))
    }

    @Test("the hello answer always names the protocol the loop speaks")
    func helloProtocol() async {
        actor Liar: KizunaSync.EngineDriver {
            func hello() async -> HelloResult { HelloResult(name: "liar", version: "1", capabilities: [], protocolVersion: "other/9") }
            func open(_ request: OpenRequest) async throws {}
            func write(_ request: WriteRequest) async throws -> WriteResult { WriteResult(outboxDepth: 0) }
            func push() async throws -> PushResult { PushResult(outcome: .nothing) }
            func pull(_ request: PullOptions) async throws -> PullResult { PullResult(outcome: .closed, cursor: "0", pages: 0) }
            func state(_ request: StateOptions) async throws -> StateResult { StateResult(rows: [:], cursor: "0", outboxDepth: 0) }
            func close() async throws {}
        }
        let requests = DriverPipe()
        let responses = DriverPipe()
        requests.send(DriverRequest.hello(id: 1).line)
        requests.finish()
        #expect(await DriverLoop.run(engine: Liar(), input: requests.reader(), output: responses) == .endOfInput)
        responses.finish()
        var reader = DriverLineReader(responses.reader())
        guard case .line(let line) = await reader.next() else {
            Issue.record("no answer")
            return
        }
        #expect(String(decoding: line, as: UTF8.self).contains(#""protocol":"accord-driver/1""#))
    }
}
