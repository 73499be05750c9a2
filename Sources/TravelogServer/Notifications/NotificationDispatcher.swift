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
public final class NotificationDispatcher: Service, Sendable {
    /// Seconds to wait after the 1st, 2nd… failed attempt; after the last, the delivery fails.
    public static let backoffSeconds: [TimeInterval] = [30, 120, 600, 3600, 6 * 3600]
    /// Seconds a request may take.
    static let timeoutSeconds: TimeInterval = 10
    /// The signature header: `sha256=` and the hex HMAC-SHA256 of the exact body under the secret.
    public static let signatureHeader = "X-Travelog-Signature"

    let store: any LocationStore
    let logger: Logger
    let now: @Sendable () -> Date
    private let chain = TaskChain()
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    public init(store: any LocationStore, logger: Logger = Logger(label: "travelog.notifications"),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.logger = logger
        self.now = now
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a message for every channel of the user (once per key) and wakes the sender.
    public func notify(_ message: NotificationMessage, userID: UserID) async {
        do {
            _ = try await store.enqueue(message, userID: userID, at: now())
            wake.yield()
        } catch {
            logger.error("cannot queue a notification", metadata: ["key": "\(message.key)", "error": "\(error)"])
        }
    }

    /// Sends every delivery that is due now. - Returns: how many were attempted.
    /// One sender at a time, so a delivery is never attempted twice at once.
    @discardableResult
    public func deliverDue() async -> Int {
        let count = Mutex(0)
        await chain.run { [self] in
            guard let due = try? await store.dueDeliveries(at: now(), limit: 100) else { return }
            for delivery in due { await attempt(delivery) }
            count.withLock { $0 = due.count }
        }
        return count.withLock { $0 }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // A tick every few seconds catches retries that fall due.
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(5))
                        self.wake.yield()
                    }
                }
                for await _ in self.wakes { await self.deliverDue() }
                group.cancelAll()
            }
        }
    }

    func attempt(_ delivery: Delivery) async {
        let (delivered, result) = await send(delivery)
        let attempt = delivery.attempts + 1
        let retryAt: Date? = delivered || attempt > Self.backoffSeconds.count
            ? nil : now().addingTimeInterval(Self.backoffSeconds[attempt - 1])
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
            request.setValue(Self.headerSafe(delivery.message.title), forHTTPHeaderField: "Title")
            request.setValue("round_pushpin", forHTTPHeaderField: "Tags")
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        }
        request.httpMethod = "POST"
        request.timeoutInterval = Self.timeoutSeconds
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return ((200..<300).contains(status), "HTTP \(status)")
        } catch {
            return (false, "\(error.localizedDescription)")
        }
    }

    /// The webhook's JSON body.
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

    /// HTTP header values are Latin-1: ntfy reads a title with other characters from RFC 2047 words.
    static func headerSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value > 0x7E }) else { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }
}
