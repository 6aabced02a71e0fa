import AccordDriver
import Corpus
import JSON
import Testing

@Suite("Malformed request lines")
struct MalformedLineTests {
    static let hello = #"{"id":1,"op":"hello","protocol":"accord-driver/1"}"#
    static let write =
        #"{"id":3,"mutation":{"columns":{"t":"a"},"mutation_id":"00000000-0000-4000-8000-f10000000001","op":"insert","pk":"k","table":"todos"},"op":"write"}"#

    /// (line, expected code, expected pointer, expected echoed id)
    static let cases: [(String, String, String, Int?)] = [
        ("{not json", "DRIVER_BAD_JSON", "", nil),
        (#"{"id":1,"op":"hello","protocol":"accord-driver/1",}"#, "DRIVER_BAD_JSON", "", nil),
        ("[1,2]", "DRIVER_INVALID_VALUE", "", nil),
        (#"{"id":7,"op":"frobnicate"}"#, "DRIVER_UNKNOWN_OP", "/op", 7),
        (#"{"op":"push"}"#, "DRIVER_MISSING_KEY", "", nil),
        (#"{"id":2}"#, "DRIVER_MISSING_KEY", "", 2),
        (#"{"id":2,"op":"hello"}"#, "DRIVER_MISSING_KEY", "", 2),
        (#"{"id":"2","op":"push"}"#, "DRIVER_INVALID_VALUE", "/id", nil),
        (#"{"id":-1,"op":"push"}"#, "DRIVER_INVALID_VALUE", "/id", nil),
        (#"{"id":2.5,"op":"push"}"#, "DRIVER_INVALID_VALUE", "/id", nil),
        (#"{"id":2,"op":7}"#, "DRIVER_INVALID_VALUE", "/op", 2),
        (#"{"id":2,"op":"push","colour":"red"}"#, "DRIVER_UNKNOWN_KEY", "/colour", 2),
        (#"{"id":2,"op":"push","id":3}"#, "DRIVER_INVALID_VALUE", "/id", 2),
        (#"{"id":2,"op":"pull","max_pages":0}"#, "DRIVER_INVALID_VALUE", "/max_pages", 2),
        (#"{"id":2,"op":"pull","max_pages":"1"}"#, "DRIVER_INVALID_VALUE", "/max_pages", 2),
        (#"{"id":2,"op":"state","tables":["Todos"]}"#, "DRIVER_INVALID_VALUE", "/tables/0", 2),
        (#"{"id":3,"op":"write"}"#, "DRIVER_MISSING_KEY", "", 3),
        (
            #"{"id":3,"mutation":{"columns":{"t":"a"},"mutation_id":"nope","op":"insert","pk":"k","table":"todos"},"op":"write"}"#,
            "DRIVER_INVALID_VALUE", "/mutation/mutation_id", 3
        ),
        (
            #"{"id":3,"mutation":{"columns":{"t":"a"},"mutation_id":"00000000-0000-4000-8000-f10000000001","op":"upsert","pk":"k","table":"todos"},"op":"write"}"#,
            "DRIVER_INVALID_VALUE", "/mutation/op", 3
        ),
        (
            #"{"id":3,"mutation":{"columns":{"t":"a"},"mutation_id":"00000000-0000-4000-8000-f10000000001","op":"insert","pk":"k","table":"todos","colour":1},"op":"write"}"#,
            "DRIVER_UNKNOWN_KEY", "/mutation/colour", 3
        ),
        (
            #"{"id":3,"mutation":{"columns":{"t":"a"},"hlc":"2026-01-01T00:00:00.000Z|0|n","mutation_id":"00000000-0000-4000-8000-f10000000001","op":"insert","pk":"k","table":"todos"},"op":"write"}"#,
            "DRIVER_UNKNOWN_KEY", "/mutation/hlc", 3
        ),
        (
            #"{"id":3,"mutation":{"columns":{"t":{"a":1}},"mutation_id":"00000000-0000-4000-8000-f10000000001","op":"insert","pk":"k","table":"todos"},"op":"write"}"#,
            "DRIVER_INVALID_VALUE", "/mutation/columns/t", 3
        ),
        (
            #"{"id":3,"mutation":{"columns":{"t":"a"},"mutation_id":"00000000-0000-4000-8000-f10000000001","op":"insert","pk":"k","table":"todos"},"op":"write","atomic_group":""}"#,
            "DRIVER_INVALID_VALUE", "/atomic_group", 3
        ),
        (
            #"{"apikey":"a","base_url":"u","client_id":"00000000-0000-4000-8000-c10000000001","id":4,"jwt":"j","op":"open","schema_version":1,"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id","colour":1}},"tombstone_ttl_days":30},"store":"s","user_id":"00000000-0000-4000-8000-a10000000001"}"#,
            "DRIVER_UNKNOWN_KEY", "/server/tables/todos/colour", 4
        ),
        (
            #"{"apikey":"a","base_url":"u","client_id":"00000000-0000-4000-8000-c10000000001","id":4,"jwt":"j","op":"open","schema_version":1,"server":{"min_schema_version":1,"tables":{"todos":{}},"tombstone_ttl_days":30},"store":"s","user_id":"00000000-0000-4000-8000-a10000000001"}"#,
            "DRIVER_MISSING_KEY", "/server/tables/todos", 4
        ),
        (
            #"{"apikey":"a","base_url":"u","checkpoint":"04","client_id":"00000000-0000-4000-8000-c10000000001","id":4,"jwt":"j","op":"open","schema_version":1,"server":{"min_schema_version":1,"tables":{},"tombstone_ttl_days":30},"store":"s","user_id":"00000000-0000-4000-8000-a10000000001"}"#,
            "DRIVER_INVALID_VALUE", "/checkpoint", 4
        ),
        (
            #"{"apikey":"a","base_url":"u","client_id":"00000000-0000-4000-8000-c10000000001","id":4,"jwt":"j","op":"open","schema_version":"1","server":{"min_schema_version":1,"tables":{},"tombstone_ttl_days":30},"store":"s","user_id":"00000000-0000-4000-8000-a10000000001"}"#,
            "DRIVER_INVALID_VALUE", "/schema_version", 4
        ),
    ]

    @Test("the decoder names the code and pointer", arguments: cases)
    func decoder(_ line: String, _ code: String, _ pointer: String, _ id: Int?) {
        do {
            let request = try DriverRequest(line: Array(line.utf8))
            Issue.record("decoded \(request) from \(line)")
        } catch {
            #expect(error.code == code, "\(line): \(error)")
            #expect(error.pointer.description == pointer, "\(line): \(error)")
        }
    }

    @Test("the loop answers every malformed line with an error response and keeps going", arguments: cases)
    func loop(_ line: String, _ code: String, _ pointer: String, _ id: Int?) async {
        let engine = ToyEngine()
        let session = await runSession(Self.hello + "\n" + line + "\n" + #"{"id":99,"op":"close"}"# + "\n", engine: engine)
        #expect(session.lines.count == 3)
        #expect(session.ending == .closed)
        guard session.lines.count == 3 else { return }
        let answer = session.lines[1]
        #expect(errorCode(answer) == code, "\(line) → \(answer)")
        #expect(errorPointer(answer) == pointer, "\(line) → \(answer)")
        #expect(parsed(answer)["id"] == (id.map { .number(JSONNumber($0)) } ?? .null), "\(line) → \(answer)")
        #expect(parsed(session.lines[2]) == ["id": 99, "result": [:]])
    }

    @Test("an overlong line is answered and skipped")
    func overlong() async {
        let engine = ToyEngine()
        let long = #"{"id":2,"op":"state","tables":["# + String(repeating: #""todos","#, count: 50) + #""todos"]}"#
        let session = await runSession(
            Self.hello + "\n" + long + "\n" + #"{"id":3,"op":"close"}"#, engine: engine, maximumLineLength: 200)
        #expect(session.lines.count == 3)
        guard session.lines.count == 3 else { return }
        #expect(errorCode(session.lines[1]) == "DRIVER_LINE_TOO_LONG")
        #expect(parsed(session.lines[1])["id"] == .null)
        #expect(parsed(session.lines[2])["id"] == 3)
    }
}
