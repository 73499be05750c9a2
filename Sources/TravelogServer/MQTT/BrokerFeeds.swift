import Foundation
import Logging

/// Something Travelog publishes to the broker, retained, from the store: swept every
/// ``BrokerFeeds/interval`` by the process that subscribes (`FriendRelay`, `HomeAssistantTrackers`).
protocol BrokerFeed: Actor {
    /// What the log calls it.
    var name: String { get }
    /// One pass: publishes what changed since the last, deletes what is no longer shown.
    @discardableResult
    func sweep(prefix: String, topicUsers: [String: String], publish: BrokerFeeds.Publish) async throws -> (published: [String], cleared: [String])
}

enum BrokerFeeds {
    /// Publishes a payload to a topic (retained or not); `false` when it was not sent.
    typealias Publish = @Sendable (_ topic: String, _ payload: Data, _ retain: Bool) -> Bool

    /// How often the feeds look for new positions.
    static let interval: Duration = .seconds(10)

    /// Sweeps each feed every ``interval`` while the publisher is connected, until the task is cancelled;
    /// the first sweep as soon as the connection is up (looked for every half second).
    static func run(_ feeds: [any BrokerFeed], commands: OwnTracksCommandPublisher, logger: Logger) async {
        while !Task.isCancelled {
            guard let connection = commands.currentConnection else {
                try? await Task.sleep(for: .milliseconds(500))
                continue
            }
            for feed in feeds {
                do {
                    try await feed.sweep(prefix: connection.prefix, topicUsers: connection.topicUsers) { topic, payload, retain in
                        commands.publish(data: payload, topic: topic, retain: retain)
                    }
                } catch {
                    let name = await feed.name
                    logger.error("MQTT: \(name) were not published: \(error)")
                }
            }
            try? await Task.sleep(for: interval)
        }
    }
}

/// The retained messages a process left on the broker, by what they show (a device): publishes a
/// thing's messages when they changed, and deletes them (an empty retained payload each) when the
/// thing is no longer shown. What it knows is what this process published since it started, and what
/// it was told it found retained on the broker (`found`: left by an earlier run).
struct RetainedTopics {
    struct Message: Sendable, Equatable {
        var topic: String
        var payload: Data
    }

    /// What was published, by key.
    private var published: [String: [Message]] = [:]

    /// A retained message on the broker that an earlier run of Travelog left under `key`: deleted at
    /// the next `apply` unless that key is still wanted (then published again).
    mutating func found(topic: String, key: String) {
        guard published[key]?.contains(where: { $0.topic == topic }) != true else { return }
        published[key, default: []].append(Message(topic: topic, payload: Data()))
    }

    /// Publishes each key's messages (in order) that differ from what was published, and deletes every
    /// key's that is no longer wanted. Returns the keys published and those cleared.
    mutating func apply(_ wanted: [String: [Message]], publish: BrokerFeeds.Publish) -> (published: [String], cleared: [String]) {
        var sent: [String] = [], cleared: [String] = []
        for key in wanted.keys.sorted() {
            let messages = wanted[key]!
            guard published[key] != messages else { continue }
            guard messages.allSatisfy({ publish($0.topic, $0.payload, true) }) else { continue }
            published[key] = messages
            sent.append(key)
        }
        for key in published.keys.sorted() where wanted[key] == nil {
            guard published[key]!.reversed().allSatisfy({ publish($0.topic, Data(), true) }) else { continue }
            published[key] = nil
            cleared.append(key)
        }
        return (sent, cleared)
    }
}
