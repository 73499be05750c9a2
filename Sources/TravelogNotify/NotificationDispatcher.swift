import Crypto
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TravelogStore
import TravelogFormats

/// Sends the outbox: webhooks (a JSON POST signed with HMAC-SHA256) and ntfy pushes, retrying
/// with backoff, every attempt written to the delivery log. The outbox is in the store, so what
/// was queued before a restart goes out after it, and an event queued twice goes out once.
///
/// The journal calls `notify(_:userID:)`; the run loop (a `Service` in the server's group) sends
/// what is due when woken and every few seconds, several channels at once, and on shutdown stops
/// at once: requests under way are abandoned and their deliveries go out after the restart.
///
/// Every request has a total deadline (`deadlineSeconds`, covering resolution, connection, TLS and
/// the answer), follows no redirect, answers no authentication challenge, and goes only to public
/// addresses unless the `AddressPolicy` allows private ones (see `OutboundHTTPClient`).
public final class NotificationDispatcher: Service, Sendable {
    /// Seconds to wait after the 1st, 2nd… failed attempt; after the last, the delivery fails
    /// (6 attempts over about 7 hours).
    public static let defaultBackoffSeconds: [TimeInterval] = [30, 120, 600, 3600, 6 * 3600]
    /// Seconds a whole request may take before it counts as failed.
    public static let deadlineSeconds: TimeInterval = 10
    /// Requests in flight at once in this process, at most; a channel has one at a time.
    static let concurrencyLimit = 8
    /// Rounds the run loop runs at once, at most.
    static let concurrentRounds = 3
    /// Seconds a delivery taken for sending is not taken again (by this or another process), well
    /// beyond a request's timeout; a sender that dies mid-request leaves it to be retried then.
    static let leaseSeconds: TimeInterval = 120
    /// Seconds between two looks at the outbox for retries that fell due.
    static let tickSeconds = 5
    /// Attempts in one round, at most.
    static let roundLimit = 100
    /// The signature header: `sha256=` and the hex HMAC-SHA256 of the exact body under the secret.
    public static let signatureHeader = "X-Travelog-Signature"

    /// Seconds to wait after the 1st, 2nd… failed attempt of a delivery.
    public let backoffSeconds: [TimeInterval]
    let store: any NotificationStore
    let logger: Logger
    let now: @Sendable () -> Date
    let client: OutboundHTTPClient
    /// Claims are made one at a time in this process, so that a channel has one request in flight.
    private let claims = TaskChain()
    /// Channels with a request in flight.
    private let busyChannels = Mutex<Set<ChannelID>>([])
    /// Rounds the run loop has under way.
    private let activeRounds = Atomic(0)
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    /// - Parameters:
    ///   - now: the clock (tests move their own).
    ///   - backoffSeconds: seconds before the 2nd, 3rd… attempt, each 0 or more; a delivery fails
    ///     after `backoffSeconds.count + 1` attempts.
    ///   - addressPolicy: whether private addresses may be reached (`--allow-private-webhooks`).
    ///   - deadlineSeconds: seconds a whole request may take.
    ///   - resolve: names to addresses (tests point names where they like; `getaddrinfo` by default).
    public init(store: any NotificationStore, logger: Logger = Logger(label: "travelog.notifications"),
                now: @escaping @Sendable () -> Date = Date.init,
                backoffSeconds: [TimeInterval] = NotificationDispatcher.defaultBackoffSeconds,
                addressPolicy: AddressPolicy = AddressPolicy(allowsPrivateAddresses: false),
                deadlineSeconds: TimeInterval = NotificationDispatcher.deadlineSeconds,
                resolve: (@Sendable (_ host: String, _ port: Int) throws(OutboundError) -> [SocketAddress])? = nil) {
        precondition(backoffSeconds.allSatisfy { $0 >= 0 }, "a backoff is 0 seconds or more")
        precondition(deadlineSeconds > 0, "a deadline is more than 0 seconds")
        client = OutboundHTTPClient(policy: addressPolicy, deadlineSeconds: deadlineSeconds,
                                    resolve: resolve ?? OutboundHTTPClient.systemResolver)
        self.store = store
        self.logger = logger
        self.now = now
        self.backoffSeconds = backoffSeconds
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a message for every channel of the user and wakes the sender. A key queued before
    /// for a channel (by this process or before a restart) queues nothing again.
    /// - Returns: the deliveries queued now (none when every channel had the key, or on a store error,
    ///   which is logged).
    @discardableResult
    public func notify(_ message: NotificationMessage, userID: UserID) async -> [DeliveryID] {
        do {
            let queued = try await store.enqueue(message, userID: userID, at: now())
            if !queued.isEmpty { wake.yield() }
            return queued
        } catch {
            logger.error("cannot queue a notification", metadata: ["key": "\(message.key)", "error": "\(error)"])
            return []
        }
    }

    /// The message `POST /api/v1/notifications/test` and `travelog notify test` send: a new key
    /// each time, so every test goes out.
    public static func testMessage(at now: Date) -> NotificationMessage {
        NotificationMessage(event: "test", key: "test:\(UUID().uuidString)", title: "Travelog test 📌",
                            message: "Notifications from Travelog reach you here.", occurredAt: now)
    }

    /// Sends every delivery that is due now, several channels at once. - Returns: how many were attempted.
    @discardableResult
    public func deliverDue() async -> Int {
        await deliver(among: nil)
    }

    /// Sends these deliveries now, when they are pending and due (the test message), unless their
    /// channel has a delivery in flight (then it goes out after it).
    /// - Returns: how many were attempted.
    @discardableResult
    public func deliver(_ ids: [DeliveryID]) async -> Int {
        ids.isEmpty ? 0 : await deliver(among: Set(ids))
    }

    /// One round: takes due deliveries, one per channel at a time and at most `concurrencyLimit`
    /// in flight in this process (the store's lease keeps other processes off them), sends them
    /// concurrently, and takes more as they finish, until none is due or the round is full. A
    /// channel that answers slowly holds one slot for at most the deadline and delays no other.
    /// Cancelling the caller cancels the requests under way (the deliveries stay due).
    private func deliver(among ids: Set<DeliveryID>?) async -> Int {
        await withTaskGroup(of: ChannelID.self) { group in
            var attempted = 0, running = 0
            while !Task.isCancelled {
                if attempted + running < Self.roundLimit, let delivery = await claim(among: ids) {
                    running += 1
                    group.addTask {
                        await self.attempt(delivery)
                        return delivery.channel.id
                    }
                    continue
                }
                guard running > 0, let channel = await group.next() else { break }
                release(channel)
                running -= 1
                attempted += 1
            }
            for await channel in group {
                release(channel)
                attempted += 1
            }
            return attempted
        }
    }

    /// Takes one due delivery of a channel with nothing in flight, when a slot is free, and marks
    /// its channel busy. Claims in this process are made one at a time.
    private func claim(among ids: Set<DeliveryID>?) async -> Delivery? {
        let taken = Claimed()
        await claims.run { [self] in
            let busy = busyChannels.withLock { $0 }
            guard busy.count < Self.concurrencyLimit else { return }
            let start = now()
            do {
                let delivery = try await store.claimDueDeliveries(at: start, leaseUntil: start.addingTimeInterval(Self.leaseSeconds),
                                                                  limit: 1, among: ids, excludingChannels: busy).first
                if let delivery { busyChannels.withLock { _ = $0.insert(delivery.channel.id) } }
                taken.delivery.withLock { $0 = delivery }
            } catch {
                logger.error("cannot read the notification outbox", metadata: ["error": "\(error)"])
            }
        }
        return taken.delivery.withLock { $0 }
    }

    /// What one claim took, handed out of the chain.
    private final class Claimed: Sendable {
        let delivery = Mutex<Delivery?>(nil)
    }

    private func release(_ channel: ChannelID) {
        busyChannels.withLock { _ = $0.remove(channel) }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // What was due before a restart goes out at once; a tick every few seconds catches
                // retries that fall due. Each wake starts a round beside those under way (a round
                // waiting on a slow channel holds up no new message), a few at most.
                self.wake.yield()
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(Self.tickSeconds))
                        self.wake.yield()
                    }
                }
                for await _ in self.wakes where !Task.isCancelled {
                    guard self.activeRounds.add(1, ordering: .relaxed).newValue <= Self.concurrentRounds else {
                        self.activeRounds.subtract(1, ordering: .relaxed)
                        continue
                    }
                    group.addTask {
                        await self.deliverDue()
                        self.activeRounds.subtract(1, ordering: .relaxed)
                    }
                }
                group.cancelAll()
            }
        }
    }

    func attempt(_ delivery: Delivery) async {
        let (delivered, result, detail) = await send(delivery)
        if Task.isCancelled, !delivered {
            // Shutting down: the delivery is due again at once, and goes out after the restart.
            logger.info("notification interrupted by shutdown", metadata: ["key": "\(delivery.message.key)"])
            try? await store.recordAttempt(delivery.id, delivered: false, result: result, retryAt: now(), at: now())
            return
        }
        let attempt = delivery.attempts + 1
        let retryAt: Date? = delivered || attempt > backoffSeconds.count
            ? nil : now().addingTimeInterval(backoffSeconds[attempt - 1])
        do {
            try await store.recordAttempt(delivery.id, delivered: delivered, result: result, retryAt: retryAt, at: now())
        } catch {
            logger.error("cannot record a notification attempt", metadata: ["error": "\(error)"])
        }
        logger.info("notification \(delivered ? "delivered" : "not delivered")",
                    metadata: ["key": "\(delivery.message.key)", "channel": "\(delivery.channel.kind.name)", "result": "\(detail ?? result)"])
    }

    /// The webhook's JSON body, keys sorted: `event` (arrival, journalEntry, test), `key`, `title`,
    /// `message`, `occurredAt` (ISO 8601, UTC), `details` (text fields), `delivery` (the id also
    /// sent as `X-Travelog-Delivery`; receivers can drop a repeat by it or by `key`).
    static func webhookBody(_ delivery: Delivery) -> Data {
        let message = delivery.message
        let object: [String: Any] = [
            "event": message.event, "key": message.key, "title": message.title, "message": message.message,
            "occurredAt": ISO8601TimeFormatter.string(message.occurredAt), "details": message.details,
            "delivery": delivery.id.rawValue,
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// Lowercase hex HMAC-SHA256 of `body` under `secret`.
    public static func signature(_ body: Data, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return code.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// A header value as ntfy reads it: printable ASCII as is, anything else (an emoji, a line
    /// break that would end the header) as an RFC 2047 encoded word.
    static func headerSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !(0x20...0x7E).contains($0.value) }) else { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }
}
