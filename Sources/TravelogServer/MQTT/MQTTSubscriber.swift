#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Foundation
import Logging
import ServiceLifecycle
import TravelogImport
import TravelogStore
import Synchronization

/// `travelog serve --mqtt`: a persistent session (fixed client id, clean session off) subscribed at
/// QoS 1 through libmosquitto, each message stored before it is acknowledged.
///
/// libmosquitto queues the PUBACK of a QoS 1 message *before* it calls `on_message`
/// (lib/handle_publish.c); with the library in threaded mode (`mosquitto_threaded_set`) the queued
/// packet leaves only when the network loop writes (lib/packet_mosq.c, `packet__queue`). Each
/// connection runs that loop itself (`MQTTConnection`): it reads everything the broker has sent
/// (up to the broker's window of unacknowledged messages), stores it, and only then writes the
/// PUBACKs; when the store fails it drops the connection with them unsent, and the broker sends
/// the messages again after the reconnect. docs/ARCHITECTURE.md has the reasoning and the source
/// lines.
///
/// Several connections (`MQTTSettings.connections`, `MQTTConnection`), each with its own session,
/// can share the messages through a shared subscription, so that more are stored at once (and in
/// shared transactions: the SQLite store's group commit). Each network loop runs on a thread of its own
/// (never a concurrency-pool thread); connecting again after the broker went away waits 1 s, then
/// twice as long each time up to 60 s, and is logged and counted in `/metrics`
/// (`travelog_mqtt_connected`, `travelog_mqtt_disconnects_total`).
final class MQTTSubscriber: Service, Sendable {
    let settings: MQTTSettings
    let ingest: OwnTracksMQTTIngest
    let metrics: ServerMetrics?
    let logger: Logger
    /// Sends the phones their regions over this connection (none: not sent).
    let commands: OwnTracksCommandPublisher?
    /// Several server processes on one database (PostgreSQL): only the one holding this role
    /// subscribes (none: this process is the only one).
    let role: (any ExclusiveRole)?
    /// Connections connected now.
    private let connectedCount = Mutex(0)
    /// The friends' relay while this process subscribes with it on.
    private let relay = Mutex<FriendRelay?>(nil)

    init(settings: MQTTSettings, ingest: OwnTracksMQTTIngest, metrics: ServerMetrics?, logger: Logger,
         commands: OwnTracksCommandPublisher? = nil, role: (any ExclusiveRole)? = nil) {
        self.settings = settings
        self.ingest = ingest
        self.metrics = metrics
        self.logger = logger
        self.commands = commands
        self.role = role
    }

    /// A subscriber storing through `writer`, as the HTTP OwnTracks route does; on a store shared by
    /// several processes, one of them subscribes at a time.
    convenience init(settings: MQTTSettings, store: any TravelogStore, writer: HistoryWriter, metrics: ServerMetrics?, logger: Logger,
                     commands: OwnTracksCommandPublisher? = nil) {
        let ingest = OwnTracksIngest(writer: writer, regions: OwnTracksRegionSync(store: store, evaluator: writer.regions))
        self.init(settings: settings, ingest: OwnTracksMQTTIngest(ingest: ingest, metrics: metrics, logger: logger, userMap: settings.userMap,
                                                                  commands: commands),
                  metrics: metrics, logger: logger, commands: commands, role: store as? any ExclusiveRole)
    }

    /// The role several processes take turns at.
    static let roleName = "mqtt-subscriber"

    /// `mosquitto_lib_init` is not thread-safe: called once per process.
    private static let libraryReady: Bool = { mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue }()

    func run() async throws {
        guard Self.libraryReady else { throw MQTTSubscriberError.setUp("libmosquitto could not be initialised") }
        guard let role else { return try await subscribe() }
        // Another process may hold the subscription: wait for it (the broker keeps the session's
        // queue meanwhile), subscribe while holding the role, wait again if the hold is lost.
        logger.info("MQTT: waiting to be the one server process that subscribes (\(Self.roleName))")
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                // Waiting for the role ends when the server stops.
                try await cancelWhenGracefulShutdown {
                    try await role.holdingRole(Self.roleName) { [self] in
                        logger.info("MQTT: this process subscribes (it holds \(Self.roleName))")
                        try await subscribe()
                    }
                }
            } catch is CancellationError {
                if Task.isShuttingDownGracefully || Task.isCancelled { break }
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled { break }
                logger.warning("MQTT: the hold on \(Self.roleName) was lost (\(error)); waiting to take it again")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Subscribes until the server stops (or the task is cancelled: the role was lost): every
    /// connection, each on a thread of its own.
    private func subscribe() async throws {
        metrics?.recordMQTTConnected(false)
        // What this process publishes while it subscribes: friends who report over HTTP, for MQTT
        // phones; every device for Home Assistant. (Before connecting: the relay hears of the
        // retained messages an earlier run left, which come on subscribing.)
        var feeds: [any BrokerFeed] = []
        if let commands {
            if settings.relayFriends {
                let friendRelay = FriendRelay(store: commands.store, logger: logger)
                relay.withLock { $0 = friendRelay }
                feeds.append(friendRelay)
            }
            if let prefix = settings.homeAssistantDiscoveryPrefix {
                feeds.append(HomeAssistantTrackers(store: commands.store, logger: logger, discoveryPrefix: prefix))
            }
        }
        defer { relay.withLock { $0 = nil } }
        let connections = (0..<settings.connections).map {
            MQTTConnection(index: $0, clientID: settings.clientID(connection: $0), subscriber: self)
        }
        var started: [MQTTConnection] = []
        do {
            for connection in connections {
                try connection.start()
                started.append(connection)
            }
        } catch {
            for connection in started { await connection.stop() }
            throw error
        }
        let publishing = feeds.isEmpty ? nil : commands.map { commands in
            Task { [feeds, logger] in await BrokerFeeds.run(feeds, commands: commands, logger: logger) }
        }
        defer { publishing?.cancel() }
        // Until the server stops; then each loop ends once a message being stored is stored.
        try? await gracefulShutdown()
        commands?.connected(nil)
        for connection in connections { await connection.stop() }
        logger.info("MQTT: disconnected from \(settings.brokerDescription)")
    }

    /// A connection connected or lost the broker: `/metrics` says connected while all are, and the
    /// commands to the phones go through the first.
    func connectionChanged(_ connection: MQTTConnection, connected: Bool) {
        connectedCount.withLock { count in
            count += connected ? 1 : -1
            metrics?.recordMQTTConnected(count == settings.connections)
        }
        guard connection.index == 0, let commands else { return }
        if connected, let client = connection.client {
            let topicUsers = Dictionary(settings.userMap.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            commands.connected(.init(client: client, prefix: settings.commandTopicPrefix, topicUsers: topicUsers))
            Task { await commands.offerToAll() }
        } else {
            commands.connected(nil)
        }
    }

    /// A retained message with the relay's marker came on subscribing (a connection's network thread).
    func foundRelayed(topic: String) {
        guard let relay = relay.withLock({ $0 }) else { return }
        Task { await relay.found(topic: topic) }
    }

    /// On a connection's network thread: stores the messages it read, blocking until they are
    /// durable; `false` when the store failed for any (none may be acknowledged).
    func store(_ messages: [OwnTracksMQTTIngest.Message]) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let result = OutcomeBox()
        Task { [ingest] in
            result.outcomes = await ingest.receive(messages)
            done.signal()
        }
        done.wait()
        return result.outcomes.allSatisfy(\.isAcknowledged)
    }
}

/// The messages' outcomes, handed from the task that stored them to the waiting network thread
/// (the semaphore orders the write before the read).
private final class OutcomeBox: @unchecked Sendable {
    var outcomes: [OwnTracksMQTTIngest.Outcome] = []
}

/// The subscriber could not be set up (a TLS file that cannot be read, an option libmosquitto refused).
enum MQTTSubscriberError: Error, CustomStringConvertible {
    case setUp(String)

    var description: String {
        switch self {
        case .setUp(let reason): "MQTT: \(reason)"
        }
    }
}
