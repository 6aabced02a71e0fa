import AccordDriver
import Checks
import JSON
import PowerSyncWire
import Reports

extension PowerSync {
    /// The judging half of the PowerSync client lane, pure: what the golden steps say the client
    /// has pending (uploads, the upload's own checkpoint request, a checksum fault just played, a
    /// disconnect), and the functions that turn a step, the requests the mock received and the
    /// driver's answers into findings of the PSC obligations. No I/O, no driver, no mock.
    struct ClientJudge: Sendable {
        /// The upload queue depth the golden steps leave.
        var pendingUploads = 0
        /// The upload's target (its own checkpoint request, or the write checkpoint it was given),
        /// until a completed checkpoint acknowledges it.
        var ownRequest: Int64?
        /// Whether the last stream played was a checksum-mismatch fault.
        var afterChecksumFault = false
        /// Whether the app has disconnected the client in this case.
        var disconnectedBefore = false

        /// The obligation a wrongly applied (or wrongly held back) checkpoint breaks at this point.
        var applyObligation: ObligationID {
            if afterChecksumFault { return .powerSyncChecksum }
            if pendingUploads > 0 { return .powerSyncUploadsFirst }
            if ownRequest != nil { return .powerSyncWriteCheckpoint }
            return .powerSyncApplyWhole
        }

        /// The obligation a wait resolved too early breaks at this point.
        var earlyWaitObligation: ObligationID { pendingUploads > 0 || ownRequest != nil ? .powerSyncWaitUploads : .powerSyncWaitComplete }

        /// Findings for the requests the mock received during a step.
        /// - Parameters:
        ///   - step: the step.
        ///   - received: the requests.
        ///   - missing: expected requests that never came.
        /// - Returns: the findings.
        func judgeRequests(_ step: PowerSync.Step, received: [PowerSync.Mock.Received], missing: [PowerSync.Mock.Expectation]) -> [Failure]
        {
            let obligation: ObligationID =
                switch step.action {
                case .client(.requestCheckpoint): .powerSyncRequestID
                case .syncStream where afterChecksumFault: .powerSyncChecksum
                default: .powerSyncExchange
                }
            var failures: [Failure] = []
            for request in received {
                if let mismatch = request.mismatch {
                    failures.append(
                        Failure(obligation, message: "\(obligation): step \(step.n) \(step.label): \(mismatch)", body: request.summary))
                }
            }
            for expected in missing {
                failures.append(
                    Failure(
                        obligation,
                        message: "\(obligation): step \(step.n) \(step.label): the client never sent \(expected.method) \(expected.path)",
                        body: CanonicalJSON.compact(expected.golden)))
            }
            return failures
        }

        /// Findings for the driver's answer to a step.
        /// - Parameters:
        ///   - step: the step.
        ///   - answer: the driver's answer.
        /// - Returns: the findings.
        func judgeAnswer(_ step: PowerSync.Step, _ answer: DriverSession.Answer) -> [Failure] {
            func fail(_ obligation: ObligationID, _ text: String) -> [Failure] {
                [Failure(obligation, message: "\(obligation): step \(step.n) \(step.label): \(text), got \(Self.describe(answer))")]
            }
            let result: PowerSync.OpResult?
            if case .result(.powerSync(let value)) = answer { result = value } else { result = nil }
            switch step.action {
            case .syncStream(_, let lines):
                if case .synced(let sync)? = result, sync.lines == lines.count { return [] }
                return fail(.powerSyncExchange, "expected the stream read to its end, \(lines.count) lines")
            case .checkpointRequest, .writeCheckpoint, .source, .replicate:
                return []
            case .client(let client):
                return judgeClient(client, step: step, result: result, answer: answer, fail: fail)
            }
        }

        private func judgeClient(
            _ client: PowerSync.ClientAction, step: PowerSync.Step, result: PowerSync.OpResult?, answer: DriverSession.Answer,
            fail: (ObligationID, String) -> [Failure]
        ) -> [Failure] {
            switch client {
            case .localWrite(_, let depth):
                if case .written(let actual)? = result, actual == depth { return [] }
                return fail(.powerSyncUploadsFirst, "expected the write queued with \(depth) upload(s) pending")
            case .upload(let request, let response, let target):
                let status = response["status"]?.numberValue?.intValue ?? 0
                let entries = request["crud"]?.arrayValue?.count ?? 0
                if (200..<300).contains(status) {
                    // Only a checkpoint request names a request the app can wait on; a write checkpoint is the client's own business.
                    let ownID: String? = if case .checkpointRequest? = target { target?.answeredID } else { nil }
                    if case .uploaded(let upload)? = result, upload.entries == entries, upload.checkpointRequestID == ownID { return [] }
                    return fail(.powerSyncExchange, "expected \(entries) entries uploaded" + (ownID.map { " and own request \($0)" } ?? ""))
                }
                if case .failure(let failure) = answer, failure.code == EngineErrorCode.upload.rawValue { return [] }
                return fail(.powerSyncWaitFailures, "expected the refused upload to fail with UPLOAD")
            case .requestCheckpoint(_, let response):
                let id = response["data"]?["checkpoint_request_id"]?.stringValue
                if case .requested(let actual)? = result, actual == id { return [] }
                return fail(.powerSyncRequestID, "expected the request named by the answered id \(id ?? "?")")
            case .requestCheckpointRefused(let code):
                if case .failure(let failure) = answer, failure.code == code { return [] }
                return fail(
                    .powerSyncRequestID, "expected the request refused with \(code), as a client in legacy checkpoint mode refuses it")
            case .waitForSync(_, _, let expect):
                if case .waited(let outcome)? = result {
                    if outcome == expect { return [] }
                    if outcome == .resolved { return fail(earlyWaitObligation, "expected the wait to end \(expect.rawValue)") }
                    if expect == .resolved {
                        return fail(disconnectedBefore ? .powerSyncRequestSurvives : .powerSyncWaitComplete, "expected the wait to resolve")
                    }
                    return fail(.powerSyncWaitFailures, "expected the wait to end \(expect.rawValue)")
                }
                return fail(
                    disconnectedBefore ? .powerSyncRequestSurvives : .powerSyncExchange, "expected the wait to end \(expect.rawValue)")
            case .disconnect, .reconnect, .localReset:
                if case .done? = result { return [] }
                return fail(.powerSyncExchange, "expected {}")
            case .streamFault(_, .checksumMismatch(let lines)):
                if case .synced(let sync)? = result, sync.lines == lines.count { return [] }
                return fail(.powerSyncChecksum, "expected the stream read to its end, \(lines.count) lines, its mismatch handled")
            case .streamFault(_, .httpError):
                if case .failure(let failure) = answer, failure.code == EngineErrorCode.download.rawValue { return [] }
                return fail(.powerSyncWaitFailures, "expected the failed stream to fail with DOWNLOAD")
            case .assertClient(let expectation):
                guard case .state(let state)? = result else { return fail(.powerSyncExchange, "expected the client's state") }
                return judgeState(expectation, state, at: "step \(step.n) \(step.label)")
            }
        }

        private func judgeState(
            _ expectation: PowerSync.ClientExpectation, _ state: ClientStateResult, at step: String
        ) -> [Failure] {
            var failures: [Failure] = []
            func add(_ obligation: ObligationID, _ text: String) {
                failures.append(Failure(obligation, message: "\(obligation): \(step): \(text)"))
            }
            if let rows = expectation.rows {
                for (table, byID) in rows.sorted(by: { $0.key < $1.key }) {
                    for (id, want) in byID.sorted(by: { $0.key < $1.key }) {
                        let have = state.rows[table]?[id]
                        let wantText = want.map { CanonicalJSON.compact(.object($0)) } ?? "absent"
                        let haveText = have.map { CanonicalJSON.compact(.object($0)) } ?? "absent"
                        if wantText != haveText { add(applyObligation, "row \(table)/\(id) is \(haveText), expected \(wantText)") }
                    }
                }
            }
            if let last = expectation.lastCheckpoint, last != state.lastCheckpoint {
                add(applyObligation, "the last applied checkpoint is \(state.lastCheckpoint ?? "none"), expected \(last ?? "none")")
            }
            if let depth = expectation.pendingUploads, depth != state.pendingUploads {
                add(.powerSyncUploadsFirst, "\(state.pendingUploads) upload(s) pending, expected \(depth)")
            }
            if let requests = expectation.requests, requests != state.requests {
                let obligation: ObligationID = Set(requests.keys) != Set(state.requests.keys) ? .powerSyncRequestID : earlyWaitObligation
                add(obligation, "the requests are \(Self.describe(state.requests)), expected \(Self.describe(requests))")
            }
            return failures
        }

        /// Follows the golden step: what the client has pending afterwards.
        /// - Parameter step: the step just judged.
        mutating func observe(_ step: PowerSync.Step) {
            switch step.action {
            case .syncStream(_, let lines):
                afterChecksumFault = false
                var writeCheckpoint: Int64?
                for line in lines {
                    if let value = (line["checkpoint"] ?? line["checkpoint_diff"])?["write_checkpoint"] {
                        writeCheckpoint = value.stringValue.flatMap { Int64($0) } ?? writeCheckpoint
                    }
                    if line["checkpoint_complete"] != nil, pendingUploads == 0, let own = ownRequest, let reached = writeCheckpoint,
                        reached >= own
                    {
                        ownRequest = nil
                    }
                }
            case .client(.localWrite(_, let depth)): pendingUploads = depth
            case .client(.upload(_, let response, let target)):
                if (200..<300).contains(response["status"]?.numberValue?.intValue ?? 0) {
                    pendingUploads = 0
                    ownRequest = target?.answeredID.flatMap { Int64($0) }
                }
            case .client(.streamFault(_, .checksumMismatch)): afterChecksumFault = true
            case .client(.disconnect): disconnectedBefore = true
            case .client(.localReset):
                pendingUploads = 0
                ownRequest = nil
            default: break
            }
        }

        static func describe(_ requests: [String: Bool]) -> String {
            "{" + requests.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value ? "synced" : "pending")" }.joined(separator: ", ") + "}"
        }

        static func describe(_ answer: DriverSession.Answer) -> String {
            switch answer {
            case .result(let result): CanonicalJSON.compact(DriverResponse(id: 0, result: result).json["result"] ?? .null)
            case .failure(let failure): failure.description
            case .broken(let why): "a broken driver: \(why)"
            }
        }
    }
}
