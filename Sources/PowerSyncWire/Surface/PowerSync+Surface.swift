import JSON

extension PowerSync {
    /// PowerSync's wire surface: the three routes Accord judges, with the method each is called
    /// with. Every module that recognises or builds PowerSync routes (the recorder, HAR import,
    /// the recording check and conversion, and the lanes) learns them here, as KizunaSync's are
    /// learned from `PostgRESTSurface`, so there is one reading of them.
    public enum Surface {
        /// One route, named by the transcript step kind that records it.
        public enum Route: String, Sendable, Hashable, CaseIterable {
            /// `POST /sync/stream`: the NDJSON sync stream.
            case syncStream = "sync-stream"
            /// `POST /sync/checkpoint-request`: a checkpoint request (the seed's alpha feature).
            case checkpointRequest = "checkpoint-request"
            /// `GET /write-checkpoint2.json`: a write checkpoint for the user and client.
            case writeCheckpoint = "write-checkpoint"

            /// The route's path, as the service mounts it.
            public var path: String {
                switch self {
                case .syncStream: "/sync/stream"
                case .checkpointRequest: "/sync/checkpoint-request"
                case .writeCheckpoint: "/write-checkpoint2.json"
                }
            }

            /// The method the route is called with.
            public var method: String {
                switch self {
                case .syncStream, .checkpointRequest: "POST"
                case .writeCheckpoint: "GET"
                }
            }

            /// Whether the route answers NDJSON, one JSON value a line.
            public var answersNDJSON: Bool { self == .syncStream }
        }

        /// The media type of the sync stream's answer.
        public static let ndjsonMediaType = "application/x-ndjson"

        /// The route a request path names: exactly one of the three paths (the service's own
        /// mount points), without a query.
        /// - Parameter path: the request path, without its query.
        /// - Returns: the route, or nil for any other path.
        public static func route(atPath path: String) -> Route? {
            routesByPath[path]
        }

        /// The routes by path. The recorder asks for every request it proxies, so this is a hash
        /// lookup on a concrete `String`: a search of `allCases` through a generic `StringProtocol`
        /// comparison took 0.62% of a recorded push's CPU (`perf record`, docs/benchmarks.md).
        private static let routesByPath = [String: Route](uniqueKeysWithValues: Route.allCases.map { ($0.path, $0) })

        /// The route a captured URL path names, as traffic saved elsewhere (a HAR file) shows it:
        /// the path may sit under a gateway's mount point and carry a query, so it is recognised by
        /// its ending (`…/sync/stream`, `…/sync/checkpoint-request`, `…/write-checkpoint2.json`).
        /// - Parameter path: the path, with or without a query.
        /// - Returns: the route, or nil.
        public static func route(inCapturedPath path: some StringProtocol) -> Route? {
            let bare = path.prefix { $0 != "?" && $0 != "#" }
            return Route.allCases.first { bare.hasSuffix($0.path) }
        }

        /// The JWT of an `Authorization` value as PowerSync's service takes it:
        /// `^(Token|Bearer) (\S+)$`, the scheme's case as written (powersync-ja/powersync-service,
        /// packages/service-core/src/routes/auth.ts at 332d649554ce0ffa6151f57bce920056f2c0b5ea,
        /// line 12). The SDKs send `Token` (powersync-kotlin, common/src/commonMain/kotlin/com/powersync/sync/StreamingSyncClient.kt
        /// at cd8c6aed).
        /// - Parameter authorization: the header value.
        /// - Returns: the token, or nil for any other value.
        public static func credential(authorization: String) -> Substring? {
            for scheme in ["Token ", "Bearer "] where authorization.hasPrefix(scheme) {
                let token = authorization.dropFirst(scheme.count)
                if !token.isEmpty, !token.contains(where: \.isWhitespace) { return token }
            }
            return nil
        }

        /// The scheme Accord's PowerSync clients send their token with, as PowerSync's SDKs do.
        public static let clientScheme = "Token"

        /// The user a PowerSync client's credential names, read without verifying it: the `sub`
        /// claim of the JWT in `Authorization: Token <jwt>` (the SDKs' scheme) or `Bearer <jwt>`.
        /// - Parameter authorization: the `Authorization` header value, if any.
        /// - Returns: the user, or nil when there is no readable JWT with a string `sub`.
        public static func user(authorization: String?) -> String? {
            guard let authorization, let space = authorization.firstIndex(of: " "),
                ["token", "bearer"].contains(authorization[..<space].lowercased())
            else { return nil }
            // PowerSync's service takes the user id from `sub` (docs/powersync.md, "The server lane").
            return UnverifiedJWT.claims(authorization[authorization.index(after: space)...])?["sub"]?.stringValue
        }

        /// The route a step kind or recorded exchange kind names.
        /// - Parameter kind: "sync-stream", "checkpoint-request" or "write-checkpoint".
        /// - Returns: the route, or nil.
        public static func route(kind: String) -> Route? { Route(rawValue: kind) }
    }
}

extension PowerSync.Surface {
    /// A call of the fixture endpoint (`accord serve --profile powersync --fixtures`) that sets
    /// the service's source side: what the server lane sends for a transcript's source steps,
    /// and what a recorded session's fixture calls are read back as.
    public enum Fixture: String, Sendable, Hashable, CaseIterable {
        /// `POST /accord/powersync/reset`: an empty service.
        case reset
        /// `POST /accord/powersync/configure`: `{"data_page_ops": N}`.
        case configure
        /// `POST /accord/powersync/source`: one source transaction, a source step's body.
        case source
        /// `POST /accord/powersync/replicate`: replication catches up.
        case replicate

        /// The call's path.
        public var path: String { PowerSync.Surface.fixturePrefix + rawValue }
    }

    /// The fixture endpoint's mount point.
    public static let fixturePrefix = "/accord/powersync/"
    /// Where `accord serve --profile powersync` answers as an app's custom checkpoint backend
    /// (Accord's stand-in for the seed's `CustomCheckpointRequestConnector` route).
    public static let checkpointBackendPath = "/accord/checkpoint-request"

    /// The fixture call a request path names, without a query.
    /// - Parameter path: the request path.
    /// - Returns: the fixture call, or nil for any other path.
    public static func fixture(atPath path: some StringProtocol) -> Fixture? {
        let bare = path.prefix { $0 != "?" && $0 != "#" }
        return Fixture.allCases.first { $0.path == bare }
    }
}
