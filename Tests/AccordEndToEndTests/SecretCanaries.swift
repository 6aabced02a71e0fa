import Foundation

/// The secrets the canary test sends: four kinds (a JWT, an opaque token, a password, a
/// refresh token) in every placement a client, a server or a browser's HAR puts one, each value
/// unique, so that a leak names its placement.
struct SecretCanaries {
    enum Kind: String, CaseIterable {
        case jwt, opaque, password, refresh
    }

    /// Where a secret travels: through the proxy (request and response) or inside a HAR file
    /// a browser saved.
    enum Placement: String, CaseIterable {
        case pathSegment, pathParameter, query, encodedQueryName, encodedQueryValue
        case authorization, apikey, cookie, otherHeader
        case jsonString, jsonObject, jsonArray, bracketFormName, encodedFormName, ndjsonObject, ndjsonArray, deepJSON
        case responseAccess, responseRefresh, responseCookie, responseLocationFragment
        case harAuthorization, harQuery, harPathSegment, harPassword, harResponseRefresh, harLocationFragment, harOtherHeader
    }

    /// The secret of a kind in a placement.
    static func value(_ kind: Kind, _ placement: Placement) -> String {
        let index = Placement.allCases.firstIndex(of: placement) ?? 0
        let tag = String(format: "%02d", index)
        switch kind {
        case .jwt:
            let header = base64URL(#"{"alg":"HS256","typ":"JWT"}"#)
            let payload = base64URL(#"{"sub":"00000000-0000-4000-8000-a10000000001","jti":"canary-\#(placement.rawValue)"}"#)
            return "\(header).\(payload).\(base64URL("signature-canary-\(placement.rawValue)"))"
        case .opaque: return "Opaq\(tag)Qz7Lm2VtKd8Wpx9"
        case .password: return "Pass\(tag)Hn4Rc6YbTj3Mqx9"
        case .refresh: return "Refr\(tag)Gs5Ue1ZaNf7Lox9"
        }
    }

    /// What must appear in no output: each value, and each part of each JWT that carries it
    /// (the payload and the signature; every canary JWT shares its header with ordinary ones).
    static var needles: [String] {
        var needles: [String] = []
        for kind in Kind.allCases {
            for placement in Placement.allCases {
                let value = value(kind, placement)
                needles.append(value)
                if kind == .jwt { needles += value.split(separator: ".").dropFirst().map(String.init) }
            }
        }
        // The cut JWT: the first 40 characters of its header, which lie before the cut.
        return needles + [String(cutJWT.prefix(40))]
    }

    /// A JWT the upstream puts across the recorder's 16 MiB body limit: its own header, so
    /// that the part before the cut is findable.
    static let cutJWT =
        base64URL(#"{"alg":"HS256","kid":"cut-at-the-body-limit-canary"}"#) + "." + base64URL(#"{"sub":"cut-canary-subject"}"#) + "."
        + base64URL("cut-canary-signature")

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// The upstream behind the proxy: pulls and pushes go on to `accord serve` with a JWT it
    /// mints; `/big` answers past the body limit with `cutJWT` across it; every other path
    /// answers as an auth server would, with the response canaries of the kind it is asked for.
    static func upstreamScript() -> String {
        var responses: [String: [String: String]] = [:]
        for kind in Kind.allCases {
            responses[kind.rawValue] = [
                "access": value(kind, .responseAccess), "refresh": value(kind, .responseRefresh),
                "cookie": value(kind, .responseCookie), "location": value(kind, .responseLocationFragment),
            ]
        }
        let table = (try? JSONSerialization.data(withJSONObject: responses)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return #"""
            import base64, hashlib, hmac, http.server, json, signal, socketserver, sys, urllib.request, urllib.error
            # A test runner may ignore SIGTERM, and children inherit that: this one must stop on it.
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            serve, secret, cut, tail = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3]), sys.argv[4]
            responses = json.loads('\#(table)')
            def b64(b): return base64.urlsafe_b64encode(b).rstrip(b'=').decode()
            def mint():
                h = b64(b'{"alg":"HS256","typ":"JWT"}')
                p = b64(json.dumps({"sub": "00000000-0000-4000-8000-a10000000001", "session_id": "00000000-0000-4000-8000-c10000000001", "role": "authenticated", "exp": 4102444800}).encode())
                return h + '.' + p + '.' + b64(hmac.new(secret, (h + '.' + p).encode(), hashlib.sha256).digest())
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = 'HTTP/1.1'
                def log_message(self, *args): pass
                def do_GET(self): self.answer()
                def do_POST(self): self.answer()
                def answer(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
                    if self.path.startswith('/rest/v1/rpc/'):
                        request = urllib.request.Request(serve + self.path, data=body, method='POST', headers={'Content-Type': 'application/json', 'Content-Profile': 'kizunasync', 'Authorization': 'Bearer ' + mint()})
                        try:
                            reply = urllib.request.urlopen(request)
                            status, out = reply.status, reply.read()
                        except urllib.error.HTTPError as error:
                            status, out = error.code, error.read()
                        return self.reply(status, out, [('Content-Type', 'application/json')])
                    if self.path.startswith('/big'):
                        return self.reply(200, b'x' * (cut - 61) + b' ' + tail.encode() + b' end', [('Content-Type', 'text/plain')])
                    canaries = responses.get(self.headers.get('X-Canary-Kind') or '')
                    if canaries is None:
                        return self.reply(200, b'{}', [('Content-Type', 'application/json')])
                    out = json.dumps({"access_token": canaries["access"], "refresh_token": canaries["refresh"], "user": {"id": "u-1"}}).encode()
                    self.reply(200, out, [('Content-Type', 'application/json'), ('Set-Cookie', 'sb-session=' + canaries["cookie"] + '; Path=/; HttpOnly'), ('Location', 'https://app.example/cb#access_token=' + canaries["location"] + '&token_type=bearer')])
                def reply(self, status, out, headers):
                    self.send_response(status)
                    for name, value in headers: self.send_header(name, value)
                    self.send_header('Content-Length', str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
            class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
                daemon_threads = True
            server = Server(('127.0.0.1', 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """#
    }
}
