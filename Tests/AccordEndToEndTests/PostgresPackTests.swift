import AccordTestSupport
import Foundation
import JSON
import Testing

/// Upstream's real server, its SQL pack on PostgreSQL 15, driven through `--server postgres://`:
/// a throwaway cluster per run, the pack applied from ../shared/kizunasync-sql as it is, Accord's
/// corpus domain through `accord postgres-init`, then every case against it.
@Suite("the KizunaSync pack on PostgreSQL", .serialized)
struct PostgresPackTests {
    static let pack = AccordBinary.packageRoot + "/../shared/kizunasync-sql"

    /// A database with upstream's vendor stub and pack applied, as a bare Postgres needs them.
    static func database(_ name: String, on cluster: PostgresCluster) async throws {
        try await cluster.psql("postgres", ["-c", "create database \(name)"])
        try await cluster.psql(name, ["-f", pack + "/pg-vendor-stub.sql"])
        try await cluster.psql(name, ["-f", pack + "/0001_kizuna_init.sql"])
    }

    /// A throwaway cluster with Supabase's roles and a database `accord` holding the pack and
    /// Accord's corpus domain (`accord postgres-init`).
    static func preparedCluster() async throws -> PostgresCluster {
        let cluster = try await PostgresCluster()
        do {
            try await cluster.psql(
                "postgres",
                ["-c", "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls"])
            try await database("accord", on: cluster)
            let prepared = try await AccordBinary.run(["postgres-init", cluster.url("accord")])
            #expect(prepared.status == 0, "\(prepared.stdout)\(prepared.stderr)")
            return cluster
        } catch {
            cluster.stop()
            throw error
        }
    }

    @Test(
        "every case lands where Expectations/kizunasync-pack.txt says; lifecycle/005 fails where the pack expires the cursor it returned; an unmarked database is refused"
    )
    func corpusAgainstPack() async throws {
        let cluster = try await Self.preparedCluster()
        defer { cluster.stop() }

        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("pack.json")
        let run = try await AccordBinary.run(
            [
                "run", "--server", cluster.url("accord"), AccordBinary.sharedCorpus, "Conformance", "Recordings/multi-user-sync.jsonl",
                "Recordings/schema-reset.jsonl", "Recordings/wall-clock-deletes.jsonl", "--scenarios",
                AccordBinary.packageRoot + "/../shared/corpus-scenarios.json", "--expect",
                "Expectations/kizunasync-pack.txt", "--json", json.path,
            ], cwd: AccordBinary.packageRoot)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")

        let report = try JSONParser.parse([UInt8](try Data(contentsOf: json)))
        func cases(_ suite: String) -> [JSONValue] {
            let found = report["suites"]?.arrayValue?.first { $0["name"]?.stringValue?.hasPrefix(suite) == true }
            return found?["cases"]?.arrayValue ?? []
        }
        func text(_ suite: String, _ step: String) -> String {
            CanonicalJSON.compact(cases(suite).first { $0["name"]?.stringValue == step } ?? .null)
        }
        let expired = text("lifecycle/005", "step 6 pull")
        #expect(expired.contains("known failing"), "\(expired)")
        #expect(
            expired.contains(#"cursor \"3\" in place of the golden \"4\", as the server answered it at step 3 pull at /cursor"#),
            "\(expired)")
        #expect(expired.contains("CHECKPOINT_EXPIRED"), "\(expired)")
        #expect(text("fencing/001", "step 3 pull").contains("not applicable: the target stamps seqs at commit"))
        #expect(text("fencing/001", "step 6 pull").contains("the rules ran on the live exchange and held"))

        // A recording of a live service (a past, another writer) replays against the pack with no
        // flag, every exchange passing or bound, and the pack answers it as the embedded server does
        // once server-made values (its seqs, its wall-clock deleted_at) are bound.
        let recording = try await LiveWorldReplayTests.record(in: folder)
        let (live, liveOut) = try await LiveWorldReplayTests.replay(recording, ["--server", cluster.url("accord")], expect: 0, in: folder)
        LiveWorldReplayTests.expectGreen(live, liveOut)
        let diff = try await AccordBinary.run([
            "diff", "--tier", "bound", "--server", "embedded", "--server", cluster.url("accord"), recording,
        ])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")

        try await Self.database("unmarked", on: cluster)
        let refused = try await AccordBinary.run(["run", "--server", cluster.url("unmarked"), AccordBinary.sharedCorpus])
        #expect(refused.status == 78, "a database without the pack is a setup mistake")
        #expect(refused.stderr.contains("was not prepared for accord (no table accord.target_marker)"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }

    @Test(
        "accord explore against the pack, seed 1 and 30 scenarios: four findings, each shrunk to a case that passes on the reference; the kept ones in Conformance/explore land where Expectations/explore-pack.txt says"
    )
    func exploreAgainstPack() async throws {
        let cluster = try await Self.preparedCluster()
        defer { cluster.stop() }

        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let findings = folder.path + "/findings"
        let junit = folder.path + "/explore.xml"
        let explored = try await AccordBinary.run([
            "explore", "--server", cluster.url("accord"), "--seed", "1", "--budget", "30", "--keep-going", "--findings", findings,
            "--junit",
            junit,
        ])
        #expect(explored.status == 1, "\(explored.stdout)\(explored.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        let names = xml.matches(of: /testcase name="(scenario [^"]*)"/).map { String($0.1) }
        // docs/explore.md argues each: 2 and 7/8 check column privileges and preconditions before
        // the row's existence (D-rejection-reasons), 15 closes below the reap horizon (I-3).
        #expect(
            names == [
                "scenario 2: AC-GOLDEN at a push step", "scenario 7: AC-GOLDEN at a push step", "scenario 8: AC-GOLDEN at a push step",
                "scenario 15: AC-BINDING at a pull step",
            ], "\(names)")
        for kept in try ExploreEndToEndTests.kept(findings) {
            #expect(kept.steps.count <= 10, "\(kept.entry["file"]?.stringValue ?? "?")")
        }
        let onReference = try await AccordBinary.run(["run", findings, "--server", "embedded"])
        #expect(onReference.status == 0, "\(onReference.stdout)\(onReference.stderr)")

        let kept = try await AccordBinary.run(
            ["run", "--server", cluster.url("accord"), "Conformance/explore", "--expect", "Expectations/explore-pack.txt"],
            cwd: AccordBinary.packageRoot)
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
    }
}
