import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore {
    static let deliveryColumns = """
        n.id, n.event_key, n.message_json, n.state, n.attempts, n.next_attempt_ms, n.last_result, n.updated_at_ms,
        c.id, c.user_id, c.kind, c.url, c.secret
        """
    static let deliveryJoin = "notification_deliveries n JOIN notification_channels c ON c.user_id = n.user_id AND c.id = n.channel_id"

    public func addChannel(userID: UserID, kind: ChannelKind) async throws(StoreError) -> NotificationChannel {
        let secret: String? = switch kind {
        case .webhook(_, let secret): secret
        case .ntfy(_, let token): token
        }
        let added = try await rows("adding a notification channel", """
            INSERT INTO notification_channels (user_id, kind, url, secret)
            SELECT id, \(kind.name), \(kind.url.absoluteString), \(secret) FROM users WHERE id = \(userID.rawValue) RETURNING id
            """)
        guard let row = added.first else { throw .unknownUser(userID) }
        return NotificationChannel(id: ChannelID(rawValue: try Self.decode(row, as: Int64.self, "adding a notification channel")),
                                   userID: userID, kind: kind)
    }

    public func channels(userID: UserID) async throws(StoreError) -> [NotificationChannel] {
        var channels: [NotificationChannel] = []
        for row in try await rows("reading notification channels", """
            SELECT id, user_id, kind, url, secret FROM notification_channels WHERE user_id = \(userID.rawValue) ORDER BY id
            """) {
            channels.append(try Self.channel(row, from: 0))
        }
        return channels
    }

    public func removeChannel(id: ChannelID, userID: UserID) async throws(StoreError) -> Bool {
        try await rows("removing a notification channel", """
            DELETE FROM notification_channels WHERE user_id = \(userID.rawValue) AND id = \(id.rawValue) RETURNING 1
            """).count == 1
    }

    public func enqueue(_ message: NotificationMessage, userID: UserID, at now: Date) async throws(StoreError) -> [DeliveryID] {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        } catch {
            throw .database(operation: "queueing a notification", message: "cannot encode the message: \(error)")
        }
        let nowMs = StoragePrecision.milliseconds(now)
        // One delivery per channel of the user; a key queued before for a channel queues nothing.
        var queued: [DeliveryID] = []
        for row in try await rows("queueing a notification", """
            INSERT INTO notification_deliveries (user_id, channel_id, event_key, message_json, state, attempts,
                next_attempt_ms, updated_at_ms)
            SELECT user_id, id, \(message.key), \(json), 'pending', 0, \(nowMs), \(nowMs)
            FROM notification_channels WHERE user_id = \(userID.rawValue) ORDER BY id
            ON CONFLICT DO NOTHING RETURNING id
            """) {
            queued.append(DeliveryID(rawValue: try Self.decode(row, as: Int64.self, "queueing a notification")))
        }
        return queued.sorted()
    }

    public func dueDeliveries(at now: Date, limit: Int) async throws(StoreError) -> [Delivery] {
        // The outbox of every user: the sender's sweep.
        try await rows("reading due notifications", """
            SELECT \(unescaped: Self.deliveryColumns) FROM \(unescaped: Self.deliveryJoin)
            WHERE n.state = 'pending' AND coalesce(n.next_attempt_ms, 0) <= \(StoragePrecision.milliseconds(now))
            ORDER BY n.id LIMIT \(Int64(limit))
            """).map(Self.delivery)
    }

    public func claimDueDeliveries(at now: Date, leaseUntil: Date, limit: Int,
                                   among ids: Set<DeliveryID>?, excludingChannels busy: Set<ChannelID>) async throws(StoreError) -> [Delivery] {
        let nowMs = StoragePrecision.milliseconds(now), leaseMs = StoragePrecision.milliseconds(leaseUntil)
        let only = ids.map { $0.map(\.rawValue).sorted() }
        let skipped = busy.map(\.rawValue).sorted()
        // Rows another sender is taking right now are skipped rather than waited for: two senders
        // never take the same delivery.
        return try await transaction("taking due notifications") { connection in
            var claimed: [Int64] = []
            for try await id in try await connection.run("""
                UPDATE notification_deliveries SET next_attempt_ms = \(leaseMs)
                WHERE (user_id, id) IN (
                    SELECT user_id, id FROM notification_deliveries
                    WHERE state = 'pending' AND coalesce(next_attempt_ms, 0) <= \(nowMs)
                        AND (\(only == nil) OR id = ANY(\(only ?? [])))
                        AND NOT (channel_id = ANY(\(skipped)))
                    ORDER BY id LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED)
                RETURNING id
                """, logger: logger).decode(Int64.self) {
                claimed.append(id)
            }
            guard !claimed.isEmpty else { return [] }
            return try await connection.run("""
                SELECT \(unescaped: Self.deliveryColumns) FROM \(unescaped: Self.deliveryJoin)
                WHERE n.id = ANY(\(claimed)) ORDER BY n.id
                """, logger: logger).collect().map(Self.delivery)
        }
    }

    public func recordAttempt(_ id: DeliveryID, delivered: Bool, result: String, retryAt: Date?, at now: Date) async throws(StoreError) {
        let state: DeliveryState = delivered ? .delivered : (retryAt == nil ? .failed : .pending)
        let next = delivered ? nil : retryAt.map(StoragePrecision.milliseconds)
        _ = try await rows("recording a notification attempt", """
            UPDATE notification_deliveries SET attempts = attempts + 1, state = \(state.rawValue), next_attempt_ms = \(next),
                last_result = \(result), updated_at_ms = \(StoragePrecision.milliseconds(now))
            WHERE id = \(id.rawValue)
            """)
    }

    public func deliveries(userID: UserID, limit: Int) async throws(StoreError) -> [Delivery] {
        try await rows("reading the delivery log", """
            SELECT \(unescaped: Self.deliveryColumns) FROM \(unescaped: Self.deliveryJoin)
            WHERE n.user_id = \(userID.rawValue) ORDER BY n.id DESC LIMIT \(Int64(limit))
            """).map(Self.delivery)
    }

    /// A channel from five columns of a row (id, user_id, kind, url, secret) starting at `first`.
    static func channel(_ row: PostgresRow, from first: Int) throws(StoreError) -> NotificationChannel {
        let operation = "reading a notification channel"
        let id = try decode(row, column: first, as: Int64.self, operation)
        let user = try decode(row, column: first + 1, as: Int64.self, operation)
        let kind = try decode(row, column: first + 2, as: String.self, operation)
        let text = try decode(row, column: first + 3, as: String.self, operation)
        let secret = try decode(row, column: first + 4, as: String?.self, operation)
        guard let url = URL(string: text) else {
            throw .database(operation: operation, message: "stored URL '\(text)' is invalid")
        }
        let channelKind: ChannelKind = kind == "webhook" ? .webhook(url: url, secret: secret ?? "") : .ntfy(url: url, token: secret)
        return NotificationChannel(id: ChannelID(rawValue: id), userID: UserID(rawValue: user), kind: channelKind)
    }

    static func delivery(_ row: PostgresRow) throws(StoreError) -> Delivery {
        let operation = "reading a notification"
        let (id, _, json, state, attempts, next, lastResult, updated) = try decode(
            row, as: (Int64, String, String, String, Int32, Int64?, String?, Int64).self, operation)
        let message: NotificationMessage
        do {
            message = try JSONDecoder().decode(NotificationMessage.self, from: Data(json.utf8))
        } catch {
            throw .database(operation: operation, message: "stored message cannot be read: \(error)")
        }
        return Delivery(id: DeliveryID(rawValue: id), channel: try channel(row, from: 8), message: message,
                        state: DeliveryState(rawValue: state) ?? .failed, attempts: Int(attempts),
                        nextAttemptAt: next.map(StoragePrecision.date(milliseconds:)), lastResult: lastResult,
                        updatedAt: StoragePrecision.date(milliseconds: updated))
    }
}
