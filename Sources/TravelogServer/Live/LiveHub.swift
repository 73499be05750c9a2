import Foundation
import ServiceLifecycle
import Synchronization
import TravelogCore
import TravelogStore

/// Locations as they are stored, for a user's live subscribers (the page's event stream).
public struct LiveUpdate: Sendable {
    public var deviceName: String
    public var source: LocationSource
    public var locations: [Location]
}

/// What a live stream carries: stored locations, or a keep-alive so idle connections stay open
/// (and a client that went away is noticed).
enum LiveMessage: Sendable {
    case update(LiveUpdate)
    case keepAlive
}

/// Hands every stored batch to the live subscribers of its user, whichever endpoint it came
/// through. A subscriber that falls behind loses the oldest updates, never blocks an ingest.
/// As a `Service` it ends every stream when the server shuts down, so open event streams do not
/// hold the shutdown up.
public final class LiveHub: Service, Sendable {
    /// Updates kept for a subscriber that does not read fast enough.
    static let bufferedUpdates = 1000

    private struct Subscriber {
        var userID: UserID
        var continuation: AsyncStream<LiveMessage>.Continuation
    }

    private let subscribers = Mutex<[UUID: Subscriber]>([:])

    public init() {}

    /// How many streams are open.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// A stream of the user's updates, until `unsubscribe` or shutdown.
    func subscribe(userID: UserID) -> (id: UUID, updates: AsyncStream<LiveMessage>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveMessage.self,
                                                            bufferingPolicy: .bufferingNewest(Self.bufferedUpdates))
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        subscribers.withLock { $0[id] = Subscriber(userID: userID, continuation: continuation) }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        subscribers.withLock { $0.removeValue(forKey: id) }?.continuation.finish()
    }

    private func remove(_ id: UUID) {
        _ = subscribers.withLock { $0.removeValue(forKey: id) }
    }

    /// Sends stored locations to the user's subscribers.
    func publish(userID: UserID, _ update: LiveUpdate) {
        let targets = subscribers.withLock { $0.values.filter { $0.userID == userID }.map(\.continuation) }
        for continuation in targets { continuation.yield(.update(update)) }
    }

    /// Ends every stream.
    func finishAll() {
        let all = subscribers.withLock { subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for subscriber in all { subscriber.continuation.finish() }
    }

    /// Seconds between keep-alives.
    static let keepAliveSeconds = 15

    /// Sends keep-alives until the server shuts down, then ends every stream.
    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(Self.keepAliveSeconds))
                let all = self.subscribers.withLock { $0.values.map(\.continuation) }
                for continuation in all { continuation.yield(.keepAlive) }
            }
        }
        finishAll()
    }
}
