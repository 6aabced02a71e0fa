import Corpus
import Harness
import JSON
import Lanes

/// The scenario setup a run plays with: Accord's built-in setup for upstream's corpus, with each
/// `--scenarios FILE` read over it in order (a later file's case replaces an earlier one's).
enum ScenarioFiles {
    static func load(_ paths: [String]) throws(RunError) -> Scenarios {
        var scenarios = Scenarios.builtIn
        for path in paths {
            do throws(CorpusError) {
                let bytes = try FileBytes.read(path)
                let json: JSONValue
                do { json = try JSONParser.parse(bytes) } catch { throw CorpusError.invalidJSON(path, error) }
                scenarios.merge(try Scenarios(json: json, file: path))
            } catch {
                throw RunError.input(error)
            }
        }
        return scenarios
    }
}
