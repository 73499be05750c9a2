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
/// packet leaves only when this network thread writes, which it does after the callback returned
/// (lib/packet_mosq.c, `packet__queue`). The callback therefore blocks its thread until the message
/// is durably stored, and when the store fails it shuts the socket so that PUBACK is never sent:
/// the broker sends the message again after the reconnect. docs/ARCHITECTURE.md has the reasoning
/// and the source lines.
///
/// The network loop runs on a thread of its own (never a concurrency-pool thread); connecting again
/// after the broker went away waits 1 s, then twice as long each time up to 60 s, and is logged
/// and counted in `/metrics` (`travelog_mqtt_connected`, `travelog_mqtt_disconnects_total`).
final class MQTTSubscriber: Service, @unchecked Sendable {
    let settings: MQTTSettings
    let ingest: OwnTracksMQTTIngest
    let metrics: ServerMetrics?
    let logger: Logger
    /// Sends the phones their regions over this connection (none: not sent).
    let commands: OwnTracksCommandPublisher?
    /// Several server processes on one database (PostgreSQL): only the one holding this role
    /// subscribes (none: this process is the only one).
    let role: (any ExclusiveRole)?
    private let stopping = Atomic<Bool>(false)
    private let isConnected = Atomic<Bool>(false)
    private let failures = Atomic<Int>(0)
    /// Set once in `run`, used by the network thread and `stop` (libmosquitto is thread-safe).
    private var client: OpaquePointer?

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

    /// Subscribes until the server stops (or the task is cancelled: the role was lost).
    private func subscribe() async throws {
        stopping.store(false, ordering: .sequentiallyConsistent)
        let client = try makeClient()
        self.client = client
        defer { mosquitto_destroy(client) }
        metrics?.recordMQTTConnected(false)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            defer { finished.signal() }
            guard let client = self.client else { return }
            networkLoop(client)
        }
        thread.name = "travelog-mqtt"
        thread.start()
        // Until the server stops; then the loop ends once a message being stored is stored.
        try? await gracefulShutdown()
        stopping.store(true, ordering: .sequentiallyConsistent)
        commands?.connected(nil)
        mosquitto_disconnect(client)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                finished.wait()
                done.resume()
            }
        }
        logger.info("MQTT: disconnected from \(settings.brokerDescription)")
    }

    private func makeClient() throws -> OpaquePointer {
        guard let client = mosquitto_new(settings.clientID, false, Unmanaged.passUnretained(self).toOpaque()) else {
            throw MQTTSubscriberError.setUp("mosquitto_new failed (errno \(errno))")
        }
        func check(_ rc: Int32, _ what: String) throws {
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                mosquitto_destroy(client)
                throw MQTTSubscriberError.setUp("\(what): \(String(cString: mosquitto_strerror(rc)))")
            }
        }
        try check(mosquitto_threaded_set(client, true), "threaded mode")
        try check(mosquitto_int_option(client, MOSQ_OPT_PROTOCOL_VERSION,
                                       settings.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311), "protocol version")
        if let username = settings.username {
            try check(mosquitto_username_pw_set(client, username, settings.password), "user name")
        }
        if settings.useTLS {
            if settings.caFile == nil { try check(mosquitto_int_option(client, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "the system's CAs") }
            try check(mosquitto_tls_set(client, settings.caFile, nil, settings.certificateFile, settings.keyFile, nil), "TLS")
        }
        try check(mosquitto_reconnect_delay_set(client, UInt32(settings.reconnectDelaySeconds.lowerBound),
                                                UInt32(settings.reconnectDelaySeconds.upperBound), true), "reconnect delay")
        mosquitto_connect_with_flags_callback_set(client) { _, context, rc, flags in
            guard let context else { return }
            Unmanaged<MQTTSubscriber>.fromOpaque(context).takeUnretainedValue().connected(rc: rc, sessionPresent: flags & 1 != 0)
        }
        mosquitto_disconnect_callback_set(client) { _, context, rc in
            guard let context else { return }
            Unmanaged<MQTTSubscriber>.fromOpaque(context).takeUnretainedValue().disconnected(rc: rc)
        }
        mosquitto_message_callback_set(client) { _, context, message in
            guard let context, let message else { return }
            Unmanaged<MQTTSubscriber>.fromOpaque(context).takeUnretainedValue().received(message.pointee)
        }
        return client
    }

    /// The network thread: connect, run libmosquitto's loop (which connects again by itself after a
    /// lost connection), and start over after what ends that loop (a refused login, a TLS failure).
    private func networkLoop(_ client: OpaquePointer) {
        var delaySeconds = settings.reconnectDelaySeconds.lowerBound
        while !stopping.load(ordering: .sequentiallyConsistent) {
            var rc = connect(client)
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                rc = mosquitto_loop_forever(client, 1000, 1)
                if isConnected.load(ordering: .sequentiallyConsistent) { delaySeconds = settings.reconnectDelaySeconds.lowerBound }
            }
            if stopping.load(ordering: .sequentiallyConsistent) { break }
            connectionLost()
            logger.warning("MQTT: \(settings.brokerDescription): \(Self.errorText(rc)); connecting again in \(delaySeconds) s")
            for _ in 0..<(delaySeconds * 10) where !stopping.load(ordering: .sequentiallyConsistent) { usleep(100_000) }
            delaySeconds = min(delaySeconds * 2, settings.reconnectDelaySeconds.upperBound)
        }
    }

    /// Connects (blocking). MQTT 5 keeps a session only as long as the client asks (Session Expiry
    /// Interval, 0 when absent: gone at the disconnect): Travelog asks for it never to expire, as
    /// clean session off does in 3.1.1. libmosquitto sends the same properties when it reconnects.
    private func connect(_ client: OpaquePointer) -> Int32 {
        guard settings.protocolVersion == .v5 else {
            return mosquitto_connect(client, settings.host, Int32(settings.port), Int32(settings.keepAliveSeconds))
        }
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        let rc = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), UInt32.max)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return rc }
        return mosquitto_connect_bind_v5(client, settings.host, Int32(settings.port), Int32(settings.keepAliveSeconds), nil, properties)
    }

    private func connected(rc: Int32, sessionPresent: Bool) {
        guard rc == 0 else {
            logger.warning("MQTT: \(settings.brokerDescription) refused the connection: \(String(cString: mosquitto_connack_string(rc)))")
            return
        }
        isConnected.store(true, ordering: .sequentiallyConsistent)
        metrics?.recordMQTTConnected(true)
        let session = sessionPresent ? "session resumed" : "subscribing to \(settings.topics.joined(separator: " "))"
        logger.info("MQTT: connected to \(settings.brokerDescription) as \(settings.clientID), \(session)")
        guard let client else { return }
        // A resumed session keeps its subscriptions; subscribing again would make the broker send
        // every retained message once more.
        if !sessionPresent {
            for topic in settings.topics {
                let rc = mosquitto_subscribe(client, nil, topic, 1)
                if rc != MOSQ_ERR_SUCCESS.rawValue { logger.error("MQTT: subscribing to \(topic): \(Self.errorText(rc))") }
            }
        }
        if let commands {
            let topicUsers = Dictionary(settings.userMap.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            commands.connected(.init(client: client, prefix: settings.commandTopicPrefix, topicUsers: topicUsers))
            Task { await commands.offerToAll() }
        }
    }

    private func disconnected(rc: Int32) {
        if stopping.load(ordering: .sequentiallyConsistent) { return }
        connectionLost()
        logger.warning("MQTT: lost \(settings.brokerDescription) (\(Self.errorText(rc))); libmosquitto connects again with backoff")
    }

    private func connectionLost() {
        commands?.connected(nil)
        isConnected.store(false, ordering: .sequentiallyConsistent)
        metrics?.recordMQTTConnected(false)
        metrics?.recordMQTTDisconnect()
        failures.add(1, ordering: .relaxed)
    }

    /// On the network thread, with the PUBACK queued but not sent: blocks until the message is
    /// stored. A store failure closes the socket under libmosquitto so that PUBACK never leaves.
    private func received(_ message: mosquitto_message) {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        let payload: [UInt8] = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        let done = DispatchSemaphore(value: 0)
        let result = OutcomeBox()
        Task { [ingest] in
            result.outcome = await ingest.receive(topic: topic, payload: payload)
            done.signal()
        }
        done.wait()
        if result.outcome?.isAcknowledged != true, let client {
            shutdown(mosquitto_socket(client), Int32(SHUT_RDWR))
        }
    }

    private static func errorText(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
    }
}

/// A message's outcome, handed from the task that stored it to the waiting network thread (the
/// semaphore orders the write before the read).
private final class OutcomeBox: @unchecked Sendable {
    var outcome: OwnTracksMQTTIngest.Outcome?
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
