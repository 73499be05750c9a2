import NIOCore

extension TravelogRequestContext {
    /// Runs `operation` until it returns or the client goes away (`ClientDepartureHandler`),
    /// whichever comes first; then `operation` is cancelled and this throws `CancellationError`.
    /// `operation` must check for cancellation in its long loops (`FileImporter` does between
    /// batches). Without the handler in the pipeline (the router tests) it simply runs `operation`.
    func untilClientLeaves<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let (departure, signal) = AsyncStream.makeStream(of: Void.self)
        let channel = self.channel
        channel.eventLoop.execute {
            guard let handler = try? channel.pipeline.syncOperations.handler(type: ClientDepartureHandler.self) else { return }
            handler.onDeparture { signal.finish() }
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            // Ends when the client leaves, or when cancelled once `operation` is done.
            group.addTask {
                for await _ in departure {}
                return nil
            }
            group.addTask { try await operation() }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw CancellationError() }
            return value
        }
    }
}
