import Corpus
import JSON
import ReferenceServer
import Testing

@Suite("Domain configuration: the built-in corpus domain and JSON domain files")
struct DomainConfigTests {
    @Test("the built-in corpus domain is fixtures/domain.json (columns, types, keys, buckets) plus Accord's checklist table")
    func corpusDomainMatchesFixture() throws {
        let json = try JSONParser.parse(try SharedFiles.bytes(SharedFiles.corpus.appendingPathComponent("fixtures/domain.json")))
        let parsed = try ReferenceDomain(json: json)
        #expect(Set(parsed.tables.keys).union(["checklist"]) == Set(ReferenceDomain.corpus.tables.keys))
        for (name, table) in ReferenceDomain.corpus.tables where parsed.tables[name] != nil {
            #expect(table.readOnlyColumns.isEmpty && table.notNullColumns.isEmpty, "upstream table \(name) carries no Accord policy")
        }
        for (name, table) in parsed.tables {
            let builtIn = try #require(ReferenceDomain.corpus.tables[name])
            #expect(table.columns == builtIn.columns, "\(name)")
            #expect(table.keyColumns == builtIn.keyColumns, "\(name)")
            #expect(table.bucketColumn == builtIn.bucketColumn, "\(name)")
        }
    }

    @Test("a bad domain file names the offending pointer")
    func badDomain() {
        let bad: JSONValue = ["tables": ["notes": ["columns": ["id": "uuid", "n": "float"], "key_columns": ["id"]]]]
        #expect {
            try ReferenceDomain(json: bad)
        } throws: { error in
            "\(error)".contains("/tables/notes/columns/n")
        }
    }
}

@Suite("Configuring a running server")
struct ConfigureTests {
    @Test("configure switches the tables without wiping data")
    func configureKeepsData() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("kept"))])
        await server.configure(Fixture.config(minSchema: 2))
        let stale = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(stale.body["signal"] == ["type": "RESET_REQUIRED"])
        let current = try await server.pull(Fixture.pull(cursor: "0", schema: 2), as: Fixture.callerA)
        #expect(current.rowKeys == [Fixture.row1])
    }
}
