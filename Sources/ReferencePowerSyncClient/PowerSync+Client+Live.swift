import PowerSyncWire
import Transport

extension PowerSync.Client {
    /// Whether the client follows a live sync stream, as an SDK's `connect` does.
    enum Following: Sendable {
        /// It does not (only `sync` reads a stream).
        case idle
        /// It reads `stream` in `reader`, line by line, in the background.
        case reading(reader: Task<Void, Never>, stream: LineStream)
        /// It connects the live stream again in `task`: in requests mode it reconciles first, as
        /// every sync iteration of PowerSync's core does (`EstablishSyncStream`), then opens it.
        case reconnecting(Task<Void, Never>)
        /// It followed one and was disconnected: `reconnect` opens it again.
        case suspended
    }

    /// Seconds a live stream may stay silent before the client connects it again.
    static let liveSilence = 60

    /// Opens the live sync stream (`POST /sync/stream` from the buckets held) and keeps reading
    /// it in the background: each line is taken as it arrives, a complete checkpoint that adds
    /// up is applied at its `checkpoint_complete` (held back as `sync` holds it), and a
    /// `partial_checkpoint_complete` at priority N applies the buckets at priority ≤ N as one
    /// unit, syncing no request. A stream the service ends, or that stays silent for
    /// `liveSilence`, is connected again from the positions held; one that fails fails the waits
    /// (`download-error`) and is not followed any more. Answers once the stream's first line
    /// has arrived and been taken; a client already following answers at once.
    /// - Returns: the lines taken before answering (1, or 0 when already following).
    /// - Throws: `PowerSync.ClientError` (DISCONNECTED, DOWNLOAD or REMOTE when the stream ends
    ///   before its first line, STORE).
    public func follow() async throws(PowerSync.ClientError) -> Int {
        guard case .connected = link else { throw .disconnected("the sync stream needs the service") }
        switch following {
        case .reading, .reconnecting: return 0
        case .idle, .suspended: break
        }
        try await connecting()
        var assembly = try heldAssembly()  // read before the stream opens, so a failed read leaves none open
        let stream = try openStream(silence: Self.liveSilence)
        var lines = stream.lines.makeAsyncIterator()
        do throws(PowerSync.ClientError) {
            guard let first = try await next(&lines, of: stream, number: 1) else {
                throw .download("the sync stream ended before its first line")
            }
            try consume(first, into: &assembly, partials: true)
        } catch {
            stream.close()
            failed(.download)
            throw error
        }
        recovered(.download)
        read(stream, from: assembly, after: 1)
        return 1
    }

    /// Reads the rest of a live stream in the background.
    func read(_ stream: LineStream, from assembly: CheckpointAssembly, after taken: Int) {
        let reader = Task { await self.take(stream, from: assembly, after: taken) }
        following = .reading(reader: reader, stream: stream)
    }

    /// The background reader: takes each line until the stream ends, then connects again, or
    /// stops following when the stream failed or the reader was cancelled (a disconnect).
    private func take(_ stream: LineStream, from start: CheckpointAssembly, after taken: Int) async {
        var assembly = start
        var lines = stream.lines.makeAsyncIterator()
        var count = taken
        do throws(PowerSync.ClientError) {
            while let line = try await next(&lines, of: stream, number: count + 1) {
                if Task.isCancelled { break }
                count += 1
                try consume(line, into: &assembly, partials: true)
            }
        } catch {
            stream.close()
            // A failure seen after a disconnect, or of a stream already replaced, is not this one's to report.
            guard !Task.isCancelled, case .reading(_, let current) = following, current === stream else { return }
            stopLive()
            return
        }
        stream.close()
        guard !Task.isCancelled, case .reading(_, let current) = following, current === stream else { return }
        // A stream that ended without a single line is not opened again at once (no retry loop);
        // `count` counts this stream's lines, the first stream's first line included.
        if count == 0 { return stopLive() }
        // The service ended the stream or it fell silent: connect again, as an SDK does.
        restartLive()
    }

    /// The live stream failed: it is not followed any more, and the waits fail as download errors.
    private func stopLive() {
        following = .idle
        failed(.download)
        endWaits(.downloadError)
    }

    /// Opens the live stream again from the positions held (after a reconnect, a local reset
    /// or the end of the last one); a store that cannot be read stops following.
    func restartLive() {
        _ = cancelLive()
        seeded = false
        following = .reconnecting(Task { await self.reopen() })
    }

    /// A new sync iteration of the live stream: the reconcile (requests and custom mode; one that
    /// fails stops following, as a failed iteration of the core), then the stream from the positions held.
    private func reopen() async {
        if configuration.checkpointMode.allocatesRequests {
            do throws(PowerSync.ClientError) { try await reconcile() } catch {
                // The iteration fails as the core's does when its reconcile fails: the waits fail with it.
                guard !Task.isCancelled, case .reconnecting = following else { return }
                return stopLive()
            }
        }
        guard !Task.isCancelled, case .reconnecting = following else { return }
        do throws(PowerSync.ClientError) {
            let assembly = try heldAssembly()
            read(try openStream(silence: Self.liveSilence), from: assembly, after: 0)
        } catch {
            stopLive()
        }
    }

    /// Stops reading the live stream; `resume` says whether `reconnect` opens it again.
    func stopFollowing(resume: Bool) {
        guard cancelLive() else { return }
        following = resume ? .suspended : .idle
    }

    /// Cancels what follows the live stream now, its reader and stream or a reconnect in progress;
    /// false when nothing does.
    private func cancelLive() -> Bool {
        switch following {
        case .reading(let reader, let stream):
            reader.cancel()
            stream.close()
        case .reconnecting(let task): task.cancel()
        case .idle, .suspended: return false
        }
        return true
    }

    /// A checkpoint assembly starting from the buckets the store holds.
    func heldAssembly() throws(PowerSync.ClientError) -> CheckpointAssembly {
        CheckpointAssembly(held: try database.buckets(), verifiesChecksums: !faults.contains(.applyChecksumMismatch))
    }
}
