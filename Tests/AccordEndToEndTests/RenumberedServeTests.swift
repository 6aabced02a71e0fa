import AccordTestSupport
import Corpus
import Foundation
import HTTPTargets
import Harness
import JSON
import KizunaWire
import Reports
import ServerContract
import Testing

@testable import Lanes

/// The offset target over HTTP: `accord serve --fixtures` behind `KizunaSync.HTTPTarget`, every seq and
/// cursor it answers moved up by 100, played through the server lane case by case.
@Suite("accord serve renumbered by +100 over HTTP", .serialized)
struct RenumberedServeTests {
    @Test("the whole shared corpus passes at tier bound with no rule finding")
    func corpusIsBound() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "offset-secret", "--fixtures"])
        defer { _ = served.stop() }
        let path = AccordBinary.packageRoot + "/../shared/corpus-scenarios.json"
        let scenarios = try Scenarios(json: try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))), file: path)
        let lane = ServerLane<KizunaSync>(scenarios: scenarios)
        var tiers: [String: Int] = [:]
        for item in try Corpus(files: FolderFiles(root: AccordBinary.sharedCorpus)).cases {
            guard case .transcript(let loaded, _) = item else { continue }
            let target = RenumberingServer(
                try KizunaSync.HTTPTarget(baseURL: "http://127.0.0.1:\(served.port)", secret: "offset-secret"), .offset(100))
            let suite = await lane.run(loaded, on: target, properties: [])
            let failed = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }
            #expect(suite.tally.failures == 0 && suite.tally.errors == 0, "\(suite.name): \(failed)")
            tiers[suite.properties.first { $0.name == "tier" }?.value ?? "?", default: 0] += 1
        }
        #expect(tiers["diverged"] == nil, "\(tiers)")
        #expect((tiers["bound"] ?? 0) >= 30, "\(tiers)")
    }
}
