import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import ServiceLifecycle
import Synchronization
import TravelogStore

/// Sends the outbox: webhooks (a JSON POST signed with HMAC-SHA256) and ntfy pushes, retrying
/// with backoff, every attempt written to the delivery log. The outbox is in the store, so what
/// was queued before a restart goes out after it, and an event queued twice goes out once.
///
/// The journal calls `notify(_:userID:)`; the run loop (a `Service` in the server's group) sends
/// what is due when woken and every few seconds, and stops between two requests on shutdown.
public final class NotificationDispatcher: Service, Sendable {
    /// Seconds to wait after the 1st, 2nd… failed attempt; after the last, the delivery fails
    /// (6 attempts over about 7 hours).
    public static let defaultBackoffSeconds: [TimeInterval] = [30, 120, 600, 3600, 6 * 3600]
    /// Seconds a request may stay silent before it counts as failed.
    static let timeoutSeconds: TimeInterval = 10
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
    private let chain = TaskChain()
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    /// - Parameters:
    ///   - now: the clock (tests move their own).
    ///   - backoffSeconds: seconds before the 2nd, 3rd… attempt, each 0 or more; a delivery fails
    ///     after `backoffSeconds.count + 1` attempts.
    public init(store: any NotificationStore, logger: Logger = Logger(label: "travelog.notifications"),
                now: @escaping @Sendable () -> Date = Date.init,
                backoffSeconds: [TimeInterval] = NotificationDispatcher.defaultBackoffSeconds) {
        precondition(backoffSeconds.allSatisfy { $0 >= 0 }, "a backoff is 0 seconds or more")
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

    /// Sends every delivery that is due now, one request at a time. - Returns: how many were attempted.
    @discardableResult
    public func deliverDue() async -> Int {
        await deliver(among: nil)
    }

    /// Sends these deliveries now, when they are pending and due (the test message).
    /// - Returns: how many were attempted.
    @discardableResult
    public func deliver(_ ids: [DeliveryID]) async -> Int {
        ids.isEmpty ? 0 : await deliver(among: Set(ids))
    }

    /// One round: takes one due delivery after the other (one round at a time in this process, and
    /// the store's lease keeps other processes off it) until none is due, the round is full, or the
    /// caller is cancelled (then after the request under way).
    private func deliver(among ids: Set<DeliveryID>?) async -> Int {
        let round = Round()
        await withTaskCancellationHandler {
            await chain.run { [self] in
                while round.attempted.load(ordering: .relaxed) < Self.roundLimit, !round.stopped.load(ordering: .relaxed) {
                    let start = now()
                    let taken: [Delivery]
                    do {
                        taken = try await store.claimDueDeliveries(at: start, leaseUntil: start.addingTimeInterval(Self.leaseSeconds),
                                                                   limit: 1, among: ids)
                    } catch {
                        logger.error("cannot read the notification outbox", metadata: ["error": "\(error)"])
                        return
                    }
                    guard let delivery = taken.first else { return }
                    await attempt(delivery)
                    round.attempted.add(1, ordering: .relaxed)
                }
            }
        } onCancel: {
            round.stopped.store(true, ordering: .relaxed)
        }
        return round.attempted.load(ordering: .relaxed)
    }

    /// What one round did so far, shared with its cancellation handler.
    private final class Round: Sendable {
        let attempted = Atomic(0)
        let stopped = Atomic(false)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // What was due before a restart goes out at once; a tick every few seconds catches
                // retries that fall due.
                self.wake.yield()
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(Self.tickSeconds))
                        self.wake.yield()
                    }
                }
                for await _ in self.wakes where !Task.isCancelled { await self.deliverDue() }
                group.cancelAll()
            }
        }
    }

    func attempt(_ delivery: Delivery) async {
        let (delivered, result) = await send(delivery)
        let attempt = delivery.attempts + 1
        let retryAt: Date? = delivered || attempt > backoffSeconds.count
            ? nil : now().addingTimeInterval(backoffSeconds[attempt - 1])
        do {
            try await store.recordAttempt(delivery.id, delivered: delivered, result: result, retryAt: retryAt, at: now())
        } catch {
            logger.error("cannot record a notification attempt", metadata: ["error": "\(error)"])
        }
        logger.info("notification \(delivered ? "delivered" : "not delivered")",
                    metadata: ["key": "\(delivery.message.key)", "channel": "\(delivery.channel.kind.name)", "result": "\(result)"])
    }

    /// One HTTP attempt. - Returns: whether it was delivered (2xx) and what came back.
    func send(_ delivery: Delivery) async -> (Bool, String) {
        var request: URLRequest
        switch delivery.channel.kind {
        case .webhook(let url, let secret):
            request = URLRequest(url: url)
            let body = Self.webhookBody(delivery)
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("sha256=" + Self.signature(body, secret: secret), forHTTPHeaderField: Self.signatureHeader)
            request.setValue(delivery.message.event, forHTTPHeaderField: "X-Travelog-Event")
            request.setValue(String(delivery.id.rawValue), forHTTPHeaderField: "X-Travelog-Delivery")
        case .ntfy(let url, let token):
            request = URLRequest(url: url)
            request.httpBody = Data(delivery.message.message.utf8)
            request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.setValue(Self.headerSafe(delivery.message.title), forHTTPHeaderField: "Title")
            request.setValue("round_pushpin", forHTTPHeaderField: "Tags")
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        }
        request.httpMethod = "POST"
        request.timeoutInterval = Self.timeoutSeconds
        do {
            let (_, response) = try await NotificationSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            let status = http?.statusCode ?? 0
            // A redirect is not followed: the log names where to, for the channel to be corrected.
            if (300..<400).contains(status), let location = http?.value(forHTTPHeaderField: "Location") {
                return (false, "HTTP \(status) to \(location)")
            }
            return ((200..<300).contains(status), "HTTP \(status)")
        } catch {
            return (false, "\(error.localizedDescription)")
        }
    }

    /// The webhook's JSON body, keys sorted: `event` (arrival, journalEntry, test), `key`, `title`,
    /// `message`, `occurredAt` (ISO 8601, UTC), `details` (text fields), `delivery` (the id also
    /// sent as `X-Travelog-Delivery`; receivers can drop a repeat by it or by `key`).
    static func webhookBody(_ delivery: Delivery) -> Data {
        let message = delivery.message
        let object: [String: Any] = [
            "event": message.event, "key": message.key, "title": message.title, "message": message.message,
            "occurredAt": ISO8601DateFormatter().string(from: message.occurredAt), "details": message.details,
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
