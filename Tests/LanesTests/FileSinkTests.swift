import Foundation
import Harness
import Lanes
import Testing

/// `FileSink`: a report written under `<path>.partial` and renamed into place on `close()`.
@Suite("FileSink writes reports atomically")
struct FileSinkTests {
    private func write(_ text: String, to sink: FileSink) throws {
        try Array(text.utf8).withUnsafeBytes { try sink.write($0) }
    }

    @Test("writes go to <path>.partial and appear under <path> only after close()")
    func renamedOnClose() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/report.xml"
            let sink = try FileSink(path: path)
            #expect(exists(path + ".partial"), "the temporary file is created on open")
            #expect(!exists(path), "nothing under the real name before close()")
            try write("<testsuites>", to: sink)
            try write("</testsuites>\n", to: sink)
            #expect(exists(path + ".partial"))
            #expect(!exists(path), "nothing under the real name before close()")
            try sink.close()
            #expect(exists(path))
            #expect(!exists(path + ".partial"), "the temporary file is renamed away")
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == "<testsuites></testsuites>\n")
            #expect(listing(folder) == ["report.xml"])
            try sink.close()
            #expect(exists(path), "a second close() is harmless")
        }
    }

    @Test("an empty report is still renamed into place")
    func emptyReport() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/empty.json"
            let sink = try FileSink(path: path)
            try sink.close()
            #expect(listing(folder) == ["empty.json"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        }
    }

    @Test("closing replaces an existing report")
    func replacesExisting() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/report.json"
            try Data("old".utf8).write(to: URL(fileURLWithPath: path))
            let sink = try FileSink(path: path)
            try write("new", to: sink)
            #expect(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == "old",
                "the old report stays until close()")
            try sink.close()
            #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == "new")
            #expect(listing(folder) == ["report.json"])
        }
    }

    /// Opens a sink, writes, and drops it without closing.
    private func abandon(_ path: String) throws {
        let sink = try FileSink(path: path)
        try write("half a report", to: sink)
        #expect(exists(path + ".partial"))
    }

    @Test("a sink dropped without close() leaves neither file")
    func droppedWithoutClose() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/report.xml"
            try abandon(path)
            #expect(!exists(path))
            #expect(!exists(path + ".partial"))
            #expect(listing(folder).isEmpty)
        }
    }

    @Test("checkWritable accepts a new file in an existing folder")
    func acceptsNewFile() throws {
        try withTemporaryFolder { folder in
            #expect(runError { try FileSink.checkWritable(folder + "/report.xml") } == nil)
            #expect(listing(folder).isEmpty, "checking creates nothing")
        }
    }

    @Test("checkWritable refuses an existing folder")
    func refusesFolder() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/reports"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let error = try requireRunError { try FileSink.checkWritable(target) }
            #expect(error.description == "\(target): cannot write report: is a folder; give a file path")
            #expect(runError { _ = try FileSink(path: target) } != nil)
            #expect(listing(folder) == ["reports"], "no \(target).partial is left")
        }
    }

    @Test("checkWritable refuses a path ending in /")
    func refusesTrailingSlash() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/report.xml/"
            let error = try requireRunError { try FileSink.checkWritable(target) }
            #expect(error.description.hasPrefix(target + ": cannot write report: "), "\(error)")
            #expect(error.description.contains("is a folder"), "\(error)")
            #expect(listing(folder).isEmpty)
        }
    }

    @Test("checkWritable refuses a path in a missing folder, naming the folder")
    func refusesMissingFolder() throws {
        try withTemporaryFolder { folder in
            let missing = folder + "/missing"
            let target = missing + "/report.xml"
            let error = try requireRunError { try FileSink.checkWritable(target) }
            #expect(error.description == "\(target): cannot write report: folder \(missing) does not exist")
            #expect(runError { _ = try FileSink(path: target) } != nil)
            #expect(listing(folder).isEmpty)
        }
    }
}
