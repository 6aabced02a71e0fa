import Corpus
import Reports

extension LaneRun {
    /// What a lane does with one unit of work: play a transcript, or replay a recording. The
    /// server and client lanes are built once here, so `accord run` and `accord selftest` hand
    /// the same pair to `run(output:_:)` and `collect(_:)`.
    struct Lane: Sendable {
        /// Plays one case.
        var play: Play
        /// Replays one recording.
        var replay: Replay
        /// Plays one PowerSync case; nil for a lane that does not play them yet.
        var playPowerSync: PowerSyncPlay? = nil

        /// The server lane: each case and each recording on a fresh target from `makeTarget`, and
        /// each PowerSync case on a fresh service from `powerSync` (nil: they are reported unsupported).
        static func server(
            _ lane: ServerLane, replay: RecordingReplay, makeTarget: @escaping ServerRun.TargetFactory,
            powerSync: PowerSyncServerLane.TargetFactory? = nil
        ) -> Lane {
            var playPowerSync: PowerSyncPlay? = nil
            if let powerSync {
                playPowerSync = { loaded, properties in
                    await PowerSyncServerLane().run(loaded, makeTarget: powerSync, properties: properties)
                }
            }
            return Lane(
                play: { loaded, properties in await lane.run(loaded, makeTarget: makeTarget, properties: properties) },
                replay: { source, properties in await replay.run(source, makeTarget: makeTarget, properties: properties) },
                playPowerSync: playPowerSync)
        }

        /// The client lane: each case and each recording with a fresh driver from `launch`.
        static func client(_ lane: ClientLane, replay: ClientReplay, launch: @escaping DriverLauncher) -> Lane {
            let powerSync = PowerSyncClientLane(requestTimeout: lane.requestTimeout)
            return Lane(
                play: { loaded, properties in await lane.run(loaded, launch: launch, properties: properties) },
                replay: { source, properties in await replay.run(source, launch: launch, properties: properties) },
                playPowerSync: { loaded, properties in await powerSync.run(loaded, launch: launch, properties: properties) })
        }
    }

    /// Runs the lane, reporting each case as it ends; returns true when nothing failed.
    func run(output: (String) -> Void, _ lane: Lane) async throws(RunError) -> Bool {
        try await run(output: output, play: lane.play, replay: lane.replay, playPowerSync: lane.playPowerSync)
    }

    /// Plays the cases quietly: their suites and every case id of the inputs.
    func collect(_ lane: Lane) async throws(RunError) -> ([SuiteResult], Set<String>) {
        try await collect(play: lane.play, replay: lane.replay, playPowerSync: lane.playPowerSync)
    }
}
