import Corpus
import HTTP
import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync.Router {
    /// The fixture endpoint: `reset` (an empty service), `configure` (`{"data_page_ops": N}`),
    /// `source` (a source commit as `SourceCommit.json` writes it) and `replicate`; 204 when
    /// done, 400 for a body the grammar refuses, 422 for a commit the service cannot take.
    func fixture(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        let service = self.service
        guard request.method == "POST" else { return Self.json(405, Self.error("ACCORD_FIXTURE", "fixtures take POST")) }
        let body: JSONValue
        do { body = request.body.isEmpty ? .object(JSONObject()) : try JSONParser.parse(request.body) } catch {
            return Self.json(400, Self.error("ACCORD_FIXTURE", "the body is not JSON: \(error)"))
        }
        let work: @Sendable () async -> PowerSync.ServiceError?
        switch name {
        case "reset":
            work = { () async -> PowerSync.ServiceError? in
                do throws(PowerSync.ServiceError) { try await service.reset() } catch { return error }
                return nil
            }
        case "replicate":
            work = { () async -> PowerSync.ServiceError? in
                do throws(PowerSync.ServiceError) { try await service.replicate() } catch { return error }
                return nil
            }
        case "configure":
            let settings: PowerSync.ServiceSettings
            do throws(WireError) { settings = try PowerSync.ServiceSettings(json: body) } catch {
                return Self.json(400, Self.error("ACCORD_FIXTURE", "\(error.pointer): \(error.detail)"))
            }
            work = { () async -> PowerSync.ServiceError? in
                await service.configure(settings)
                return nil
            }
        case "source":
            let commit: SourceCommit
            do throws(WireError) { commit = try SourceCommit(json: body) } catch {
                return Self.json(400, Self.error("ACCORD_FIXTURE", "\(error.pointer): \(error.detail)"))
            }
            work = { () async -> PowerSync.ServiceError? in
                do throws(PowerSync.ServiceError) { try await service.apply(commit) } catch { return error }
                return nil
            }
        default:
            return Self.json(404, Self.error("ACCORD_FIXTURE", "no fixture \(name)"))
        }
        if let failure = Blocking.run(work) { return Self.json(422, Self.error("ACCORD_FIXTURE", "\(failure)")) }
        return HTTPResponse(status: 204)
    }
}
