extension PowerSyncTranscript {
    /// The transcript of a recorded session as the client lane replays it: each
    /// `checkpoint-request` exchange, which the recorded client sent itself (its own counter's
    /// id), becomes the app's `request-checkpoint` step with the same bodies, so the client lane
    /// asks the client for a checkpoint request and expects it to send the recorded body.
    /// Every other step stays: a `write-checkpoint` exchange is one the client lane cannot make
    /// a client send, so the case is not applicable there (docs/recording.md, "PowerSync
    /// exchanges").
    public var recordedClient: PowerSyncTranscript {
        var copy = self
        copy.steps = steps.map { step in
            guard case .checkpointRequest(let request, let response) = step.action else { return step }
            return PowerSyncStep(n: step.n, action: .client(.requestCheckpoint(request: request, response: response)))
        }
        return copy
    }
}
