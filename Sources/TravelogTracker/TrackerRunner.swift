import Foundation
import TravelogCore
import TravelogTracking

/// The tracker: a source's fixes through the location manager into the on-disk queue (and a GPX
/// file), uploads from the queue, headings from the receiver. The state machines decide; this
/// type only moves their inputs and outputs between the source, the disk and the network.
public struct TrackerRunner: Sendable {
    public let settings: TrackerSettings
    /// Where messages for people go (standard error for the command).
    public let log: @Sendable (String) -> Void

    public init(settings: TrackerSettings, log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.log = log
    }

    /// Runs until a finite source ends (then uploads what it can and returns) or the task is
    /// cancelled. Two child tasks feed one stream: the source's events, and a wall-clock tick every
    /// second (for timeouts and uploads when no fix comes).
    public func run(recorder: GPXRecorder?) async throws {
        let queue = try TrackerQueue(path: settings.queuePath, capacity: settings.queueCapacity)
        var state = TrackerState(settings: settings)
        let uploader = settings.server.map { OverlandUploader(server: $0, token: settings.token ?? "") }
        let source = SourceReader.start(settings.source)
        let (merged, continuation) = AsyncStream<SourceEvent>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in source { continuation.yield(event) }
                continuation.finish()
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(1))
                    continuation.yield(.tick(Date()))
                }
            }
            var uploads = UploadSchedule()
            for await event in merged {
                let ended = try state.handle(event, queue: queue, recorder: recorder, log: log)
                if let uploader {
                    await uploads.uploadIfDue(queue: queue, uploader: uploader, batchSize: settings.batchSize,
                                              intervalSeconds: settings.uploadIntervalSeconds, draining: ended, log: log)
                }
                if ended { break }
            }
            group.cancelAll()
        }
        recorder?.finish()
    }
}

/// When to upload: every `intervalSeconds`, or at once when a batch is full; after a failure,
/// not before the backoff has passed. Draining (a log has ended) sends everything it can.
struct UploadSchedule {
    private var nextAttempt = Date.distantPast
    private var backoff = UploadBackoff()

    mutating func uploadIfDue(queue: TrackerQueue, uploader: OverlandUploader, batchSize: Int, intervalSeconds: Double,
                              draining: Bool, log: @Sendable (String) -> Void) async {
        let now = Date()
        guard now >= nextAttempt || (draining && backoff.failures == 0) else { return }
        do {
            while true {
                let batch = try queue.oldest(limit: batchSize)
                guard !batch.isEmpty else { break }
                do {
                    try await uploader.upload(batch.map(\.feature))
                } catch {
                    try queue.recordUploadFailure(error.description)
                    let wait = backoff.failed()
                    nextAttempt = Date().addingTimeInterval(wait)
                    log("upload failed (\(error)); \(try queue.status().queuedCount) fixes stay queued, next try in \(Int(wait)) s")
                    return
                }
                try queue.acknowledge(batch)
                if backoff.failures > 0 { log("upload resumed: \(batch.count) fixes delivered") }
                backoff.succeeded()
                if batch.count < batchSize { break }
            }
            nextAttempt = Date().addingTimeInterval(intervalSeconds)
        } catch {
            log("the queue at \(queue.path) cannot be read: \(error)")
            nextAttempt = Date().addingTimeInterval(intervalSeconds)
        }
    }
}
