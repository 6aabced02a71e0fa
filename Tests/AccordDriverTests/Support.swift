import AccordDriver
import Corpus
import JSON
import KizunaWire

enum Fixture {
    static let client = "00000000-0000-4000-8000-c10000000001"
    static let user = "00000000-0000-4000-8000-a10000000001"
    static let row1 = "00000000-0000-4000-8000-e10000000001"
    static let mutation1 = "00000000-0000-4000-8000-f10000000001"
    static let mutation2 = "00000000-0000-4000-8000-f10000000002"

    static let server = ServerConfig(
        synced: [
            // Declared in key order: the wire form sorts object keys, so a round trip keeps this order.
            TableConfig(
                table: "notes", bucketColumn: "owner_id", conflictMode: "hlc", conflictJournal: true, keyColumns: ["owner_id", "slug"],
                softDeleteColumn: "deleted_at"),
            TableConfig(table: "todos", bucketColumn: "owner_id"),
        ], minSchemaVersion: 1, tombstoneTTLDays: 30, maxPullScan: 2)

    static let open = OpenRequest(
        store: "/tmp/toy.sqlite", baseURL: "http://127.0.0.1:54321", apikey: "anon", jwt: "eyJ.x.y", clientID: client, userID: user,
        schemaVersion: 1, server: server, checkpoint: "4", pullLimit: 2)

    static let insert = Mutation(
        mutationID: mutation1, table: "todos", pk: row1, op: .insert, columns: ["done": false, "owner_id": .string(user), "title": "a"])

    static func text(_ request: DriverRequest) -> String { String(decoding: request.line, as: UTF8.self) }
}

/// Runs a whole session: sends `input` (bytes as given), ends the input, and collects the
/// response lines.
func runSession(_ input: String, engine: ToyEngine, maximumLineLength: Int = 1 << 20) async -> (
    lines: [String], ending: DriverLoop.Ending
) {
    let requests = DriverPipe()
    let responses = DriverPipe()
    requests.send(Array(input.utf8))
    requests.finish()
    let ending = await DriverLoop.run(
        engine: engine, input: requests.reader(), output: responses, maximumLineLength: maximumLineLength)
    responses.finish()
    var reader = DriverLineReader(responses.reader())
    var lines: [String] = []
    while let line = await reader.next() {
        if case .line(let bytes) = line { lines.append(String(decoding: bytes, as: UTF8.self)) }
    }
    return (lines, ending)
}

/// The parsed response line.
func parsed(_ line: String) -> JSONValue { (try? JSONParser.parse(line)) ?? .null }

/// The error code of a response line, if it is an error.
func errorCode(_ line: String) -> String? { parsed(line)["error"]?["code"]?.stringValue }

/// The error pointer of a response line, if any.
func errorPointer(_ line: String) -> String? { parsed(line)["error"]?["pointer"]?.stringValue }
