import NIOCore
import NIOPosix
import Synchronization

/// A TCP listener on a free port of 127.0.0.1 that accepts connections and never answers: a
/// webhook that hangs. `stop()` closes it and every connection it accepted.
final class SilentServer: Sendable {
    private let listener: any Channel
    private let connections: Connections
    /// One element per accepted connection.
    let accepted: AsyncStream<Void>

    private final class Connections: Sendable {
        let open = Mutex<[any Channel]>([])
        let arrival: AsyncStream<Void>.Continuation
        init(arrival: AsyncStream<Void>.Continuation) { self.arrival = arrival }
    }

    var port: Int { listener.localAddress?.port ?? 0 }

    init() async throws {
        let (accepted, arrival) = AsyncStream.makeStream(of: Void.self)
        let connections = Connections(arrival: arrival)
        self.accepted = accepted
        self.connections = connections
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                connections.open.withLock { $0.append(child) }
                connections.arrival.yield()
                return child.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func stop() async {
        let open = connections.open.withLock { $0 }
        for channel in open { try? await channel.close() }
        try? await listener.close()
        connections.arrival.finish()
    }
}
