import JSON
import KizunaWire

extension Transcript {
    /// True when `id` follows the case-id grammar `<flow>/<NNN>-<slug>`.
    /// - Returns: whether it is well-formed.
    public static func isCaseID(_ id: String) -> Bool {
        id.wholeMatch(
            of: /(array|conflict|fencing|increment|lifecycle|pull|push|rebase|tombstones|wakeup)\/[0-9]{3}-[a-z0-9]+(-[a-z0-9]+)*/) != nil
    }

    /// Reads a transcript strictly: the top-level fields, the context, dense step numbers and
    /// the step grammar. rpc payloads stay JSON; the rules judge them.
    /// - Parameters:
    ///   - json: the parsed file.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` naming file, step and JSON pointer.
    public init(json: JSONValue, file: String) throws(CorpusError) {
        var step: Int?
        do throws(WireError) {
            var reader = try ObjectReader(json, at: .root, malformed: .json)
            let caseID = try reader.string("case")
            if !Transcript.isCaseID(caseID) {
                throw WireError(.json, at: JSONPointer(tokens: ["case"]), "case id \"\(caseID)\" is not <flow>/<NNN>-<slug>")
            }
            let cites = try ObjectReader.strings(try reader.required("cites"), at: JSONPointer(tokens: ["cites"]))
            let status = try Self.oneOf(&reader, "status", ["decided", "normative", "open-decision", "proposed"])
            let priority = try Self.oneOf(&reader, "priority", ["P0", "P1", "P2"])
            let fencing = try Self.oneOf(&reader, "fencing", ["shared", "visibility-horizon"])
            let title = try reader.string("title")
            let context = try CaseContext(json: try reader.required("context"), at: JSONPointer(tokens: ["context"]))
            var steps: [Step] = []
            let stepsPointer = JSONPointer(tokens: ["steps"])
            let rawSteps = try reader.array("steps")
            if rawSteps.isEmpty { throw WireError(.json, at: stepsPointer, "a transcript has at least one step") }
            for (index, element) in rawSteps.enumerated() {
                let at = stepsPointer.appending(index)
                step = element["n"]?.numberValue?.intValue ?? index + 1
                let decoded = try Step(json: element, at: at)
                if decoded.n != index + 1 {
                    step = decoded.n
                    throw WireError(
                        .json, at: at.appending("n"), "step numbers are dense from 1: expected n=\(index + 1), found n=\(decoded.n)")
                }
                steps.append(decoded)
            }
            step = nil
            var postconditions: [Check] = []
            for (index, element) in try reader.array("postconditions").enumerated() {
                postconditions.append(try Check(json: element, at: JSONPointer(tokens: ["postconditions", String(index)])))
            }
            try reader.finish()
            self.init(
                caseID: caseID, title: title, cites: cites, status: status, priority: priority, fencing: fencing, context: context,
                steps: steps, postconditions: postconditions)
        } catch {
            throw CorpusError.grammar(file, step: step, at: error.pointer, error.detail)
        }
    }

    static func oneOf(_ reader: inout ObjectReader, _ key: String, _ allowed: [String]) throws(WireError) -> String {
        let value = try reader.string(key)
        guard allowed.contains(value) else {
            throw WireError(
                .json, at: reader.pointer.appending(key), "expected one of \(allowed.joined(separator: "|")), found \"\(value)\"")
        }
        return value
    }
}

extension CaseContext {
    /// Reads a transcript's `context` object.
    package init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .json)
        clientID = try reader.string("client_id")
        userID = try reader.string("user_id")
        schemaVersion = try reader.integer("schema_version")
        notes =
            try reader.optional("notes").map { v throws(WireError) in try ObjectReader.strings(v, at: pointer.appending("notes")) } ?? []
        server = try ServerConfig(json: try reader.required("server"), at: pointer.appending("server"))
        try reader.finish()
    }
}

extension ServerConfig {
    init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .json)
        minSchemaVersion = try reader.integer("min_schema_version")
        tombstoneTTLDays = try reader.integer("tombstone_ttl_days")
        maxPullScan = try reader.optionalInteger("max_pull_scan")
        if let cap = maxPullScan, cap < 1 { throw WireError(.json, at: pointer.appending("max_pull_scan"), "max_pull_scan is at least 1") }
        let tablesPointer = pointer.appending("tables")
        let tablesObject = try ObjectReader(try reader.required("tables"), at: tablesPointer, malformed: .json).object
        var tables: [TableConfig] = []
        for member in tablesObject.members {
            let at = tablesPointer.appending(member.key)
            var table = try ObjectReader(member.value, at: at, malformed: .json)
            let conflictMode = try table.optionalString("conflict_mode")
            if let conflictMode, conflictMode != "arrival" && conflictMode != "hlc" {
                throw WireError(.json, at: at.appending("conflict_mode"), "expected arrival|hlc, found \"\(conflictMode)\"")
            }
            let journal = table.optional("conflict_journal")
            if let journal, journal.boolValue == nil { throw table.typeError("conflict_journal", "a boolean", journal) }
            tables.append(
                TableConfig(
                    name: member.key, bucketColumn: try table.string("bucket_column"), conflictMode: conflictMode,
                    conflictJournal: journal?.boolValue,
                    keyColumns: try table.optional("key_columns").map { v throws(WireError) in
                        try ObjectReader.strings(v, at: at.appending("key_columns"))
                    },
                    softDeleteColumn: try table.optionalString("soft_delete_column")))
            try table.finish()
        }
        self.tables = tables
        try reader.finish()
    }
}
