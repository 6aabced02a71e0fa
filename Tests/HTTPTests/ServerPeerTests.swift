import AccordTestSupport
import Foundation
import HTTP
import JSON
import Serve
import ServerContract
import Synchronization
import Testing

/// The server against real peers on loopback: curl and Python's http.client and sockets.
@Suite("Server against curl and Python", .serialized, .timeLimit(.minutes(2)))
struct ServerPeerTests {
    @Test("curl: 200 with a minted JWT, 401 without, 404 elsewhere; the stub sees the identity")
    func curlBasics() async throws {
        let harness = try PeerHarness()
        #expect(harness.server.endpoint.host == "127.0.0.1")
        let ok = try await PeerProcess.curl(harness.rpcArguments("pull", token: harness.token) + ["--data-binary", #"{"cursor":"0"}"#])
        let (body, status) = PeerHarness.bodyAndStatus(ok.stdout)
        #expect(status == 200, "\(ok.stderr)")
        #expect((try? JSONParser.parse(body))?["echo"] == ["cursor": "0"])
        let anonymous = try await PeerProcess.curl(harness.rpcArguments("pull", token: nil) + ["--data-binary", "{}"])
        let (anonymousBody, anonymousStatus) = PeerHarness.bodyAndStatus(anonymous.stdout)
        #expect(anonymousStatus == 401)
        #expect((try? JSONParser.parse(anonymousBody))?["code"] == "PGRST302")
        let missing = try await PeerProcess.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(harness.base)/rest/v1/tables"])
        #expect(missing.stdout == "404")
        #expect(await harness.stub.calls == [.pull(["cursor": "0"], Identity(user: "peer-user", session: "peer-client"))])
        await harness.server.stop()
    }

    @Test("curl: a chunked upload from stdin, HTTP/1.0, and bad JSON leave the server answering")
    func curlChunkedAndHTTP10() async throws {
        let harness = try PeerHarness()
        let body = #"{"batch":{"atomic":false,"mutations":[]},"pad":""# + String(repeating: "x", count: 200_000) + "\"}"
        let chunked = try await PeerProcess.curl(
            harness.rpcArguments("push", token: harness.token) + ["-H", "Transfer-Encoding: chunked", "--data-binary", "@-"],
            input: Data(body.utf8))
        #expect(PeerHarness.bodyAndStatus(chunked.stdout).status == 200, "\(chunked.stderr)")
        let pushed = await harness.stub.calls.first
        if case .push(let received, _) = pushed {
            #expect(received["pad"]?.stringValue?.count == 200_000)
        } else {
            Issue.record("push not recorded: \(String(describing: pushed))")
        }
        let old = try await PeerProcess.curl(
            ["--http1.0", "-i"] + harness.rpcArguments("pull", token: harness.token) + ["--data-binary", "{}"])
        #expect(old.stdout.hasPrefix("HTTP/1.0 200 OK"))
        #expect(old.stdout.contains("Connection: close"))
        let bad = try await PeerProcess.curl(harness.rpcArguments("push", token: harness.token) + ["--data-binary", "{nope"])
        let (badBody, badStatus) = PeerHarness.bodyAndStatus(bad.stdout)
        #expect(badStatus == 400)
        #expect((try? JSONParser.parse(badBody))?["code"] == "PGRST102")
        let after = try await PeerProcess.curl(harness.rpcArguments("pull", token: harness.token) + ["--data-binary", "{}"])
        #expect(PeerHarness.bodyAndStatus(after.stdout).status == 200)
        await harness.server.stop()
    }

    @Test("http.client: three requests reuse one kept-alive connection; 413 for a 2 MiB body")
    func pythonKeepAliveAnd413() async throws {
        let harness = try PeerHarness()
        let program = """
            import http.client, json
            c = http.client.HTTPConnection('127.0.0.1', \(harness.server.port), timeout=10)
            headers = {'Authorization': 'Bearer \(harness.token)', 'Content-Type': 'application/json'}
            ports = []
            for i in range(3):
                c.request('POST', '/rest/v1/rpc/pull', body=json.dumps({'cursor': str(i)}), headers=headers)
                r = c.getresponse()
                body = json.loads(r.read())
                ports.append(c.sock.getsockname()[1])
                print(r.status, body['echo']['cursor'], r.getheader('Connection'))
            print('same-connection', len(set(ports)) == 1)
            c.request('POST', '/rest/v1/rpc/push', body=b'{"x":"' + b'y' * (2 * 1024 * 1024) + b'"}', headers=headers)
            r = c.getresponse()
            print(r.status, json.loads(r.read())['code'], r.getheader('Connection'))
            """
        let output = try await PeerProcess.python(program)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.split(separator: "\n").map(String.init) == [
                "200 0 None", "200 1 None", "200 2 None", "same-connection True", "413 HTTP413 close",
            ])
        #expect(await harness.stub.calls.count == 3)
        await harness.server.stop()
    }

    @Test("raw socket: 431 for a huge header block, pipelined requests answered in order")
    func rawHeadersAndPipelining() async throws {
        let harness = try PeerHarness()
        let huge = "GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "b", count: 20_000) + "\r\n\r\n"
        let tooLarge = try await PeerProcess.python(PeerHarness.rawExchange(port: harness.server.port, chunks: [huge]))
        #expect(tooLarge.stdout.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(tooLarge.stderr)")
        #expect(tooLarge.stdout.contains(#""code":"HTTP431""#))
        let request =
            "POST /rest/v1/rpc/pull HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(harness.token)\r\nContent-Type: application/json\r\n"
        let pipelined = [
            request + "Content-Length: 14\r\n\r\n{\"cursor\":\"1\"}" + request
                + "Transfer-Encoding: chunked\r\n\r\nE\r\n{\"cursor\":\"2\"}\r\n0\r\n\r\n"
                + "GET /nope HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
        ]
        let answered = try await PeerProcess.python(PeerHarness.rawExchange(port: harness.server.port, chunks: pipelined))
        let statuses = answered.stdout.matches(of: #/HTTP/1\.1 ([0-9]{3}) /#).map { String($0.output.1) }
        #expect(statuses == ["200", "200", "404"])
        let echoes = await harness.stub.calls.compactMap { call -> String? in
            if case .pull(let body, _) = call { return body["cursor"]?.stringValue }
            return nil
        }
        #expect(echoes == ["1", "2"])
        await harness.server.stop()
    }

    @Test("slowloris: a request trickling in past the read timeout gets 408; the server keeps answering")
    func slowloris() async throws {
        let harness = try PeerHarness { $0.readTimeout = .seconds(1) }
        let trickle = ["POST /rest/v1/rpc/pull HTTP/1.1\r\n"] + (0..<30).map { "X-Slow-\($0): v\r\n" }
        let clock = ContinuousClock()
        let started = clock.now
        let output = try await PeerProcess.python(PeerHarness.rawExchange(port: harness.server.port, chunks: trickle, pause: 0.2))
        #expect(output.stdout.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(output.stdout) \(output.stderr)")
        #expect(clock.now - started < .seconds(5))
        let slowBody = ["POST /rest/v1/rpc/pull HTTP/1.1\r\nHost: h\r\nContent-Length: 40\r\n\r\n"] + Array(repeating: "x", count: 30)
        let bodyOutput = try await PeerProcess.python(PeerHarness.rawExchange(port: harness.server.port, chunks: slowBody, pause: 0.2))
        #expect(bodyOutput.stdout.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(bodyOutput.stdout) \(bodyOutput.stderr)")
        let after = try await PeerProcess.curl(harness.rpcArguments("pull", token: harness.token) + ["--data-binary", "{}"])
        #expect(PeerHarness.bodyAndStatus(after.stdout).status == 200)
        await harness.server.stop()
    }

    @Test("a connection over the cap, the open one busy with a request, gets 503; stop() closes idle connections and the listener")
    func capAndStop() async throws {
        let harness = try PeerHarness { $0.maxConnections = 1 }
        let port = harness.server.port
        let program = """
            import socket, time
            a = socket.create_connection(('127.0.0.1', \(port)), timeout=5)
            a.sendall(b'GET /x HTTP/1.1\\r\\n')
            time.sleep(0.3)
            b = socket.create_connection(('127.0.0.1', \(port)), timeout=5)
            print(b.recv(100).split(b'\\r\\n')[0].decode())
            a.sendall(b'Host: h\\r\\n\\r\\n')
            print(a.recv(100).split(b'\\r\\n')[0].decode())
            """
        let output = try await PeerProcess.python(program)
        #expect(output.stdout == "HTTP/1.1 503 Service Unavailable\nHTTP/1.1 404 Not Found\n", "\(output.stderr)")
        await harness.server.stop()
        #expect(harness.server.connectionCount == 0)
        let refused = try await PeerProcess.curl(["-o", "/dev/null", "\(harness.base)/"])
        #expect(refused.status == 7)
    }

    @Test("stop() lets a request in progress finish with Connection: close")
    func gracefulStop() async throws {
        let started = Mutex(false)
        let server = try HTTPServer.start(HTTPServerConfiguration(gracePeriod: .seconds(3))) { _ in
            started.withLock { $0 = true }
            try? await Task.sleep(for: .milliseconds(400))
            return .text(status: 200, "slow")
        }
        async let client = PeerProcess.curl(["-i", "http://127.0.0.1:\(server.port)/"])
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while !started.withLock({ $0 }), clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        await server.stop()
        let output = try await client
        #expect(output.stdout.hasPrefix("HTTP/1.1 200 OK"), "\(output.stderr)")
        #expect(output.stdout.contains("Connection: close"))
        #expect(server.connectionCount == 0)
        await server.stop()
    }

    @Test("Expect: 100-continue: a small body is invited, an oversized one refused before it is sent")
    func expectContinue() async throws {
        let harness = try PeerHarness { $0.limits.body = 64 * 1024 }
        let small = try await PeerProcess.curl(
            harness.rpcArguments("pull", token: harness.token) + ["-H", "Expect: 100-continue", "--data-binary", "{}"])
        #expect(PeerHarness.bodyAndStatus(small.stdout).status == 200, "\(small.stderr)")
        let clock = ContinuousClock()
        let started = clock.now
        let big = try await PeerProcess.curl(
            harness.rpcArguments("push", token: harness.token) + ["-H", "Expect: 100-continue", "--data-binary", "@-"],
            input: Data(repeating: UInt8(ascii: "x"), count: 1024 * 1024))
        let (body, status) = PeerHarness.bodyAndStatus(big.stdout)
        #expect(status == 413)
        #expect((try? JSONParser.parse(body))?["code"] == "HTTP413")
        #expect(clock.now - started < .seconds(3))
        await harness.server.stop()
    }

    @Test("an explicit IPv6 loopback address binds and serves")
    func ipv6() async throws {
        let server: HTTPServer
        do {
            server = try HTTPServer.start(HTTPServerConfiguration(host: "::1")) { _ in .text(status: 200, "six") }
        } catch {
            Issue.record("::1 could not be bound: \(error)")
            return
        }
        #expect(server.endpoint.isLoopback)
        let output = try await PeerProcess.curl(["-g", "http://[::1]:\(server.port)/"])
        #expect(output.stdout == "six\n", "\(output.stderr)")
        await server.stop()
    }

    @Test("an unbindable or non-numeric address is a socket error")
    func badAddress() {
        #expect(throws: HTTPError.self) {
            try HTTPServer.start(HTTPServerConfiguration(host: "example.invalid")) { _ in HTTPResponse(status: 200) }
        }
        #expect(throws: HTTPError.self) {
            try HTTPServer.start(HTTPServerConfiguration(host: "192.0.2.1")) { _ in HTTPResponse(status: 200) }
        }
    }

    @Test("live fuzz: 200 mutated requests over sockets each get a well-formed answer or a quiet close")
    func liveFuzz() async throws {
        let harness = try PeerHarness { $0.readTimeout = .milliseconds(500) }
        let program = """
            import random, re, socket
            random.seed(7)
            base = (b'POST /rest/v1/rpc/pull HTTP/1.1\\r\\nHost: h\\r\\nAuthorization: Bearer \(harness.token)\\r\\n'
                    b'Content-Type: application/json\\r\\nContent-Length: 14\\r\\n\\r\\n{"cursor":"0"}')
            chunked = (b'POST /rest/v1/rpc/push HTTP/1.1\\r\\nHost: h\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n'
                       b'2\\r\\n{}\\r\\n0\\r\\n\\r\\n')
            alphabet = b'\\r\\n :;0123456789abcdef\\t\\x00\\x7f\\xff/?{}"'
            bad = []
            answered = 0
            for i in range(200):
                data = bytearray(base if i % 2 == 0 else chunked)
                for _ in range(random.randint(1, 4)):
                    if not data: break
                    p = random.randrange(len(data))
                    k = random.randrange(4)
                    if k == 0: data[p] = random.choice(alphabet)
                    elif k == 1: data.insert(p, random.choice(alphabet))
                    elif k == 2: del data[p]
                    else: data = data[:p]
                s = socket.create_connection(('127.0.0.1', \(harness.server.port)), timeout=5)
                try:
                    s.sendall(bytes(data))
                    s.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                out = b''
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk: break
                        out += chunk
                except OSError:
                    pass
                s.close()
                if out:
                    answered += 1
                    for line in re.findall(rb'HTTP/1\\.[01] [^\\r]*\\r\\n', out) or [out[:40]]:
                        if not re.match(rb'HTTP/1\\.1 [1-5][0-9][0-9] [A-Za-z -]+\\r\\n', line): bad.append(line)
            print(answered > 60, bad[:3])
            """
        let output = try await PeerProcess.python(program, timeout: 60)
        #expect(output.stdout == "True []\n", "\(output.stderr)")
        let after = try await PeerProcess.curl(harness.rpcArguments("pull", token: harness.token) + ["--data-binary", "{}"])
        #expect(PeerHarness.bodyAndStatus(after.stdout).status == 200)
        await harness.server.stop()
    }

    @Test("40 concurrent keep-alive clients, 5 requests each, all answered")
    func concurrentClients() async throws {
        let harness = try PeerHarness()
        let program = """
            import http.client, json, threading
            results = []
            def client(n):
                c = http.client.HTTPConnection('127.0.0.1', \(harness.server.port), timeout=20)
                for i in range(5):
                    c.request('POST', '/rest/v1/rpc/pull', body=json.dumps({'cursor': '%d-%d' % (n, i)}),
                              headers={'Authorization': 'Bearer \(harness.token)', 'Content-Type': 'application/json'})
                    r = c.getresponse()
                    results.append((r.status, json.loads(r.read())['echo']['cursor'] == '%d-%d' % (n, i)))
            threads = [threading.Thread(target=client, args=(n,)) for n in range(40)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(len(results), all(r == (200, True) for r in results))
            """
        let output = try await PeerProcess.python(program, timeout: 60)
        #expect(output.stdout == "200 True\n", "\(output.stderr)")
        #expect(await harness.stub.calls.count == 200)
        await harness.server.stop()
        #expect(harness.server.connectionCount == 0)
    }
}
