import JSON
import ServerContract
import Testing

@testable import PostgresTarget

/// The pure parts of the Postgres target: PostgREST's argument matching and error statuses, the
/// row projection, the configuration file, the URL shown in messages.
@Suite("Postgres target: what PostgREST would do")
struct PostgRESTVocabularyTests {
    static let pull = RPCFunction(
        schema: "kizunasync", name: "pull",
        arguments: [
            .init(name: "buckets", type: "jsonb"), .init(name: "cursor", type: "text"), .init(name: "schema_version", type: "integer"),
            .init(name: "limit", type: "integer"), .init(name: "client_id", type: "uuid"),
        ], required: 3)

    @Test("the body's keys become named arguments converted by json_to_record; defaults stay out")
    func call() {
        let call = Self.pull.call(["buckets": [], "cursor": "0", "schema_version": 1])
        #expect(
            call
                == .statement(
                    #"select "kizunasync"."pull"("buckets" := _."buckets", "cursor" := _."cursor", "schema_version" := _."schema_version")::text from json_to_record($1::json) as _("buckets" jsonb, "cursor" text, "schema_version" integer)"#
                ))
    }

    @Test("a key that names no argument, or a required argument left out, is 404 PGRST202 before any SQL")
    func refusals() {
        for body: JSONObject in [["buckets": [], "cursor": "0", "schema_version": 1, "since": "x"], ["buckets": [], "cursor": "0"]] {
            guard case .refused(let reply) = Self.pull.call(body) else {
                Issue.record("\(body) should be refused")
                continue
            }
            #expect(reply.status == 404)
            #expect(reply.body["code"] == "PGRST202")
            #expect(reply.body["message"]?.stringValue?.hasPrefix("Could not find the function kizunasync.pull(") == true)
        }
    }

    @Test(
        "SQLSTATEs map to PostgREST's statuses",
        arguments: [
            ("22023", 400), ("KZP01", 400), ("KZP02", 400), ("P0001", 400), ("23505", 409), ("23503", 409), ("23502", 400),
            ("42501", 403), ("42883", 404), ("42P01", 404), ("08006", 503), ("53300", 503), ("53400", 500), ("40001", 500),
            ("P0002", 500), ("XX000", 500), ("25006", 405), ("28000", 403), ("PT402", 402), ("PT999", 500),
        ])
    func statuses(_ state: String, _ status: Int) {
        #expect(RPCReply.postgRESTStatus(sqlState: state) == status)
    }

    @Test("42501 is 401 without a JWT, and the error object carries PostgreSQL's fields")
    func errorObject() {
        #expect(RPCReply.postgRESTStatus(sqlState: "42501", authenticated: false) == 401)
        let reply = RPCReply.sqlError(sqlState: "22023", message: "limit must be at least 1", details: nil, hint: "pass 1 or more")
        #expect(
            CanonicalJSON.compact(reply.body)
                == #"{"code":"22023","details":null,"hint":"pass 1 or more","message":"limit must be at least 1"}"#)
    }
}

@Suite("Postgres target: rows as written, configuration, messages")
struct PostgresTargetPartsTests {
    @Test("nulls and unnamed key columns are dropped; values, and key columns a write named, stay")
    func projection() {
        var projection = RowProjection()
        projection.keyColumns = ["todos": ["id"], "seats": ["hall", "seat"]]
        projection.noteWrites(ofPush: ["batch": ["mutations": [["table": "seats", "columns": ["hall": 1, "seat": 12, "holder": "h"]]]]])
        let page: JSONValue = [
            "rows": [
                ["pk": "a", "row": ["done": false, "id": "a", "likes": nil, "title": "t"], "seq": "1", "table": "todos"],
                ["pk": "[\"1\",\"12\"]", "row": ["hall": 1, "holder": "h", "seat": 12], "seq": "2", "table": "seats"],
            ]
        ]
        #expect(
            CanonicalJSON.compact(projection.projectPull(page))
                == #"{"rows":[{"pk":"a","row":{"done":false,"title":"t"},"seq":"1","table":"todos"},{"pk":"[\"1\",\"12\"]","row":{"hall":1,"holder":"h","seat":12},"seq":"2","table":"seats"}]}"#
        )
        let push: JSONValue = [
            "verdicts": [["mutation_id": "m", "server_row": ["id": "a", "title": "t", "version": nil], "verdict": "applied"]]
        ]
        let request: JSONValue = ["batch": ["mutations": [["mutation_id": "m", "table": "todos"]]]]
        #expect(CanonicalJSON.compact(projection.projectPush(push, request: request)).contains(#""server_row":{"title":"t"}"#))
    }

    @Test("a configuration file reads, and a bad one names the file and pointer")
    func config() throws {
        let config = try TargetConfig(
            json: [
                "schema": "sync", "rows": "as-rendered", "numbering": "gapped",
                "tables": ["items": ["key_columns": ["a", "b"]], "feed": ["sync_mode": "pull-only"]],
            ],
            file: "team.json")
        #expect(config.schema == "sync" && config.role == "authenticated" && config.rows == .asRendered && config.numbering == .gapped)
        #expect(config.tables.map(\.name) == ["items", "feed"])
        #expect(config.table("items")?.keyColumns == ["a", "b"] && config.table("feed")?.syncMode == "pull-only")
        for (json, pointer): (JSONValue, String) in [
            (["tables": ["t": ["sync_mode": "write-only"]]], "/tables/t/sync_mode"), (["tables": ["Bad-Name": [:]]], "/tables/Bad-Name"),
            (["tables": [:], "rows": "all"], "/rows"), (["tables": [:], "extra": 1], "/extra"), ([:], "\"tables\""),
        ] {
            do {
                _ = try TargetConfig(json: json, file: "team.json")
                Issue.record("\(json) should be refused")
            } catch {
                #expect("\(error)".hasPrefix("team.json: "), "\(error)")
                #expect("\(error)".contains(pointer), "\(error)")
            }
        }
    }

    @Test("a URL's password never reaches a message: userinfo, ?password= and key/value alike; a user name alone stays")
    func password() {
        #expect(PostgresTarget.withoutPassword("postgres://user:s3cret@host:5432/db") == "postgres://user:<redacted:secret:1>@host:5432/db")
        #expect(PostgresTarget.withoutPassword("postgres://user@host/db") == "postgres://user@host/db")
        #expect(
            PostgresTarget.withoutPassword("postgres://user@host/db?sslmode=disable&password=s3cret")
                == "postgres://user@host/db?sslmode=disable&password=<redacted:secret:1>")
        #expect(PostgresTarget.withoutPassword("host=h password=s3cret dbname=d") == "host=h password=<redacted:secret:1> dbname=d")
    }

    @Test("the corpus domain is owner-only for authenticated, keeps version out of checklist writes, and writes the marker")
    func domain() {
        let sql = CorpusDomain.sql
        #expect(
            sql.contains("create policy accord_owner_select on public.todos for select to authenticated using (owner_id = auth.uid());"))
        #expect(
            sql.contains("grant insert (id, owner_id, title, done), update (owner_id, title, done) on public.checklist to authenticated;"))
        #expect(sql.contains("execute function kizunasync.track_delete();"))
        #expect(sql.contains("create table if not exists accord.target_marker"))
    }
}
