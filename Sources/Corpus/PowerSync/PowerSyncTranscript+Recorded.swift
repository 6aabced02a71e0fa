extension PowerSyncTranscript {
    /// The transcript of a recorded session as the client lane replays it. A client that posts
    /// checkpoint requests runs in requests mode, and its requests are of two kinds, told apart
    /// by where they sit as PowerSync's core places them (powersync-sqlite-core at 60ebb70,
    /// docs/write-checkpoint-requests.md): the first of the session and each one right before a
    /// sync stream is its reconcile at connect (`reconcile`); every other one is the app's
    /// `request-checkpoint` step with the same bodies, so the client lane asks the client for a
    /// checkpoint request and expects it to send the recorded body. Every other step stays: a
    /// `write-checkpoint` exchange is one the client lane cannot make a client send, so it is not
    /// applicable there (docs/recording.md, "PowerSync exchanges").
    public var recordedClient: PowerSyncTranscript {
        var copy = self
        var first = true
        copy.steps = steps.enumerated().map { index, step in
            guard case .checkpointRequest(let request, let response) = step.action else { return step }
            defer { first = false }
            let next = steps[(index + 1)...].first { !$0.isSourceSide }
            if first || next.map({ if case .syncStream = $0.action { true } else { false } }) == true {
                return PowerSyncStep(n: step.n, action: step.action, reconcile: true)
            }
            return PowerSyncStep(n: step.n, action: .client(.requestCheckpoint(request: request, response: response)))
        }
        if steps.contains(where: { if case .checkpointRequest = $0.action { true } else { false } }) { copy.checkpointMode = .requests }
        return copy
    }
}
