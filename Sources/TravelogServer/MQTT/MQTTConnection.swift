#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Foundation
import Logging
import Synchronization

/// One of `MQTTSubscriber`'s connections to the broker: a libmosquitto client with a persistent
/// session of its own (its fixed client id), in threaded mode, whose network loop runs here on a
/// thread of its own (`serve`): read what the broker sent, store it, then write. libmosquitto
/// queues a message's PUBACK before its message callback, and in threaded mode only a write sends
/// it, so a PUBACK leaves only once its message is stored (docs/ARCHITECTURE.md).
final class MQTTConnection: @unchecked Sendable {
    /// 0-based; connection 0 also carries the commands to the phones.
    let index: Int
    let clientID: String
    unowned let subscriber: MQTTSubscriber
    /// Set once before the thread starts, destroyed after it ended.
    private(set) var client: OpaquePointer?
    let isConnected = Atomic<Bool>(false)
    /// The broker kept this connection's session: retained messages it sends are copies of what
    /// the session received already.
    private let resumedSession = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Messages read and not stored yet: the network thread's alone.
    private var pending: [OwnTracksMQTTIngest.Message] = []
    /// The most messages stored at once (the broker's window of unacknowledged messages is smaller
    /// unless it was set larger).
    static let maximumBatch = 5_000

    init(index: Int, clientID: String, subscriber: MQTTSubscriber) {
        self.index = index
        self.clientID = clientID
        self.subscriber = subscriber
    }

    /// Makes the client and starts its network thread.
    func start() throws {
        client = try makeClient()
        let thread = Thread { [self] in
            defer { finished.signal() }
            networkLoop()
        }
        thread.name = "travelog-mqtt-\(index + 1)"
        thread.start()
    }

    /// Disconnects; returns once a message being stored is stored and the thread has ended.
    func stop() async {
        guard let client else { return }
        // The network thread sees it within 100 ms, once what it is storing is stored, and disconnects.
        stopping.store(true, ordering: .sequentiallyConsistent)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [finished] in
                finished.wait()
                done.resume()
            }
        }
        mosquitto_destroy(client)
        self.client = nil
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func makeClient() throws -> OpaquePointer {
        let settings = subscriber.settings
        guard let client = mosquitto_new(clientID, false, Unmanaged.passUnretained(self).toOpaque()) else {
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
        if settings.protocolVersion == .v5 {
            // MQTT 5 lets the client say how many unacknowledged messages it takes (the Receive
            // Maximum; libmosquitto asks for 20): as many as `serve` stores at once. (3.1.1 has no
            // such field: the broker's `max_inflight_messages` decides.)
            try check(mosquitto_int_option(client, MOSQ_OPT_RECEIVE_MAXIMUM, Int32(Self.maximumBatch)), "receive maximum")
        }
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
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().connected(rc: rc, sessionPresent: flags & 1 != 0)
        }
        mosquitto_message_callback_set(client) { _, context, message in
            guard let context, let message else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().received(message.pointee)
        }
        return client
    }

    /// The network thread: connect, serve the connection until it is lost, and connect again after
    /// 1 s, then twice as long each time up to 60 s (back to 1 s once a connection was accepted).
    private func networkLoop() {
        guard let client else { return }
        let settings = subscriber.settings
        var delaySeconds = settings.reconnectDelaySeconds.lowerBound
        while !isStopping {
            var rc = connect(client)
            if rc == MOSQ_ERR_SUCCESS.rawValue { rc = serve(client) }
            if isStopping { break }
            if isConnected.load(ordering: .sequentiallyConsistent) {
                delaySeconds = settings.reconnectDelaySeconds.lowerBound
                subscriber.logger.warning("MQTT: lost \(settings.brokerDescription) (\(Self.errorText(rc))); connecting again in \(delaySeconds) s")
            } else {
                subscriber.logger.warning("MQTT: \(settings.brokerDescription): \(Self.errorText(rc)); connecting again in \(delaySeconds) s")
            }
            connectionLost()
            for _ in 0..<(delaySeconds * 10) where !isStopping { usleep(100_000) }
            delaySeconds = min(delaySeconds * 2, settings.reconnectDelaySeconds.upperBound)
        }
    }

    /// libmosquitto's network loop, with the writes held back until what was read is stored: wait
    /// for the socket; read every message the broker has sent (`received` collects them); store
    /// them at once (`MQTTSubscriber.store`); only then write what is queued (their PUBACKs, pings,
    /// commands to the phones); keep the connection alive. Returns libmosquitto's code when the
    /// connection is lost, or success once the server stops (after a DISCONNECT, so the broker
    /// keeps the session). When the store failed the connection is dropped with the PUBACKs
    /// unsent; connecting again discards them (`mosquitto__reconnect`, `packet__cleanup_all`).
    private func serve(_ client: OpaquePointer) -> Int32 {
        pending.removeAll()
        while true {
            if isStopping {
                mosquitto_disconnect(client)
                _ = mosquitto_loop_write(client, 1)
                return MOSQ_ERR_SUCCESS.rawValue
            }
            let socket = mosquitto_socket(client)
            guard socket >= 0 else { return MOSQ_ERR_NO_CONN.rawValue }
            var wait = pollfd(fd: socket, events: Int16(POLLIN) | (mosquitto_want_write(client) ? Int16(POLLOUT) : 0), revents: 0)
            let ready = poll(&wait, 1, 100)
            if ready < 0 && errno != EINTR { return MOSQ_ERR_ERRNO.rawValue }
            if ready > 0 && wait.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                repeat {
                    let rc = mosquitto_loop_read(client, 1)
                    guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                        // Unacknowledged: the broker sends them again.
                        pending.removeAll()
                        return rc
                    }
                } while pending.count < Self.maximumBatch && Self.isReadable(mosquitto_socket(client))
            }
            if !pending.isEmpty {
                let stored = subscriber.store(pending)
                pending.removeAll(keepingCapacity: true)
                guard stored else {
                    shutdown(mosquitto_socket(client), Int32(SHUT_RDWR))
                    return MOSQ_ERR_CONN_LOST.rawValue
                }
            }
            if mosquitto_want_write(client) {
                let rc = mosquitto_loop_write(client, 1)
                guard rc == MOSQ_ERR_SUCCESS.rawValue else { return rc }
            }
            let rc = mosquitto_loop_misc(client)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return rc }
        }
    }

    /// Whether the socket has bytes to read now.
    private static func isReadable(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        var wait = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&wait, 1, 0) > 0 && wait.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }

    /// Connects (blocking). MQTT 5 keeps a session only as long as the client asks (Session Expiry
    /// Interval, 0 when absent: gone at the disconnect): Travelog asks for it never to expire, as
    /// clean session off does in 3.1.1. libmosquitto sends the same properties when it reconnects.
    private func connect(_ client: OpaquePointer) -> Int32 {
        let settings = subscriber.settings
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
        let settings = subscriber.settings
        guard rc == 0 else {
            subscriber.logger.warning("MQTT: \(settings.brokerDescription) refused the connection: \(String(cString: mosquitto_connack_string(rc)))")
            return
        }
        let wasConnected = isConnected.exchange(true, ordering: .sequentiallyConsistent)
        resumedSession.store(sessionPresent, ordering: .sequentiallyConsistent)
        guard let client else { return }
        let shared = settings.connections > 1
        let subscribing = "subscribing to \(settings.subscriptions.joined(separator: " "))"
        let session = sessionPresent ? "session resumed" + (shared ? ", \(subscribing)" : "") : subscribing
        subscriber.logger.info("MQTT: connected to \(settings.brokerDescription) as \(clientID), \(session)")
        if shared {
            // A shared subscription is never sent the retained messages, so subscribing again is
            // harmless; a session kept from a single connection holds the plain filters, which would
            // send every message to this connection once more: dropped (what it queued still comes).
            for topic in settings.subscriptions { subscribe(client, topic) }
            if index == 0 { for topic in settings.topics { mosquitto_unsubscribe(client, nil, topic) } }
        } else {
            // Subscribed on every connect: a session kept from several connections holds the shared
            // filters instead (dropped here). Subscribing makes the broker send the retained
            // messages again; a resumed session had them already, so those are passed over
            // (`received`): the broker sets the retain flag only on what a new subscription sends.
            for topic in settings.subscriptions { subscribe(client, topic) }
            for topic in settings.sharedSubscriptions { mosquitto_unsubscribe(client, nil, topic) }
        }
        if !wasConnected { subscriber.connectionChanged(self, connected: true) }
    }

    private func subscribe(_ client: OpaquePointer, _ topic: String) {
        let rc = mosquitto_subscribe(client, nil, topic, 1)
        if rc != MOSQ_ERR_SUCCESS.rawValue { subscriber.logger.error("MQTT: subscribing to \(topic): \(Self.errorText(rc))") }
    }

    private func connectionLost() {
        subscriber.metrics?.recordMQTTDisconnect()
        if isConnected.exchange(false, ordering: .sequentiallyConsistent) { subscriber.connectionChanged(self, connected: false) }
    }

    /// On the network thread, with the PUBACK queued but not sent: the message joins what `serve`
    /// stores before it writes.
    private func received(_ message: mosquitto_message) {
        if message.retain, let topic = message.topic, let payload = message.payload,
           FriendRelay.isRelayed(Array(UnsafeRawBufferPointer(start: payload, count: Int(message.payloadlen)))) {
            subscriber.foundRelayed(topic: String(cString: topic))
        }
        if message.retain && resumedSession.load(ordering: .sequentiallyConsistent) {
            subscriber.metrics?.recordMQTTMessage(OwnTracksMQTTIngest.Outcome.ignored.rawValue)
            return
        }
        let topic = message.topic.map { String(cString: $0) } ?? ""
        let payload: [UInt8] = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        pending.append(OwnTracksMQTTIngest.Message(topic: topic, payload: payload))
    }

    static func errorText(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
    }
}
