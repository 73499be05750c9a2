import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore {
    static let deliveryColumns = """
        n.id, n.event_key, n.message_json, n.state, n.attempts, n.next_attempt_ms, n.last_result, n.updated_at_ms,
        c.id, c.user_id, c.kind, c.url, c.secret
        """

    public func addChannel(userID: UserID, kind: ChannelKind) async throws(StoreError) -> NotificationChannel {
        try await write("adding a notification channel") { db throws(StoreError) -> NotificationChannel in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue])) != nil
            else { throw .unknownUser(userID) }
            let secret: String? = switch kind {
            case .webhook(_, let secret): secret
            case .ntfy(_, let token): token
            }
            try Self.execute(db, "adding a notification channel",
                             "INSERT INTO notification_channels (user_id, kind, url, secret) VALUES (?, ?, ?, ?)",
                             [userID.rawValue, kind.name, kind.url.absoluteString, secret])
            return NotificationChannel(id: ChannelID(rawValue: db.lastInsertedRowID), userID: userID, kind: kind)
        }
    }

    public func channels(userID: UserID) async throws(StoreError) -> [NotificationChannel] {
        try await read("reading notification channels") { db in
            try Row.fetchAll(db, sql: "SELECT id, user_id, kind, url, secret FROM notification_channels WHERE user_id = ? ORDER BY id",
                             arguments: [userID.rawValue]).map { try Self.channel($0, offset: 0) }
        }
    }

    public func removeChannel(id: ChannelID, userID: UserID) async throws(StoreError) -> Bool {
        try await write("removing a notification channel") { db throws(StoreError) -> Bool in
            try Self.execute(db, "removing a notification channel", "DELETE FROM notification_channels WHERE id = ? AND user_id = ?",
                             [id.rawValue, userID.rawValue])
            return db.changesCount == 1
        }
    }

    public func enqueue(_ message: NotificationMessage, userID: UserID, at now: Date) async throws(StoreError) -> [DeliveryID] {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        } catch {
            throw .database(operation: "queueing a notification", message: "cannot encode the message: \(error)")
        }
        return try await write("queueing a notification") { db throws(StoreError) -> [DeliveryID] in
            let nowMs = StoragePrecision.milliseconds(now)
            var queued: [DeliveryID] = []
            let channelIDs: [Int64]
            do {
                channelIDs = try Int64.fetchAll(db, sql: "SELECT id FROM notification_channels WHERE user_id = ? ORDER BY id",
                                                arguments: [userID.rawValue])
            } catch {
                throw .database(operation: "queueing a notification", message: String(describing: error))
            }
            for channel in channelIDs {
                try Self.execute(db, "queueing a notification", """
                    INSERT OR IGNORE INTO notification_deliveries
                        (channel_id, event_key, message_json, state, attempts, next_attempt_ms, updated_at_ms)
                    VALUES (?, ?, ?, 'pending', 0, ?, ?)
                    """, [channel, message.key, json, nowMs, nowMs])
                if db.changesCount == 1 { queued.append(DeliveryID(rawValue: db.lastInsertedRowID)) }
            }
            return queued
        }
    }

    public func dueDeliveries(at now: Date, limit: Int) async throws(StoreError) -> [Delivery] {
        try await read("reading due notifications") { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.deliveryColumns) FROM notification_deliveries n JOIN notification_channels c ON c.id = n.channel_id
                WHERE n.state = 'pending' AND coalesce(n.next_attempt_ms, 0) <= ? ORDER BY n.id LIMIT ?
                """, arguments: [StoragePrecision.milliseconds(now), limit]).map(Self.delivery)
        }
    }

    public func claimDueDeliveries(at now: Date, leaseUntil: Date, limit: Int,
                                   among ids: Set<DeliveryID>?, excludingChannels busy: Set<ChannelID>) async throws(StoreError) -> [Delivery] {
        let only = ids.map { ids in ids.map { String($0.rawValue) }.joined(separator: ",") }
        let skipped = busy.map { String($0.rawValue) }.joined(separator: ",")
        return try await write("taking due notifications") { db throws(StoreError) -> [Delivery] in
            do {
                // Ids are integers, written into the statement as text.
                let filter = (only.map { " AND n.id IN (\($0))" } ?? "") + (busy.isEmpty ? "" : " AND n.channel_id NOT IN (\(skipped))")
                let claimed = try Int64.fetchAll(db, sql: """
                    SELECT n.id FROM notification_deliveries n
                    WHERE n.state = 'pending' AND coalesce(n.next_attempt_ms, 0) <= ?\(filter) ORDER BY n.id LIMIT ?
                    """, arguments: [StoragePrecision.milliseconds(now), limit])
                guard !claimed.isEmpty else { return [] }
                let list = claimed.map(String.init).joined(separator: ",")
                try db.execute(sql: "UPDATE notification_deliveries SET next_attempt_ms = ? WHERE id IN (\(list))",
                               arguments: [StoragePrecision.milliseconds(leaseUntil)])
                return try Row.fetchAll(db, sql: """
                    SELECT \(Self.deliveryColumns) FROM notification_deliveries n JOIN notification_channels c ON c.id = n.channel_id
                    WHERE n.id IN (\(list)) ORDER BY n.id
                    """).map(Self.delivery)
            } catch {
                throw .database(operation: "taking due notifications", message: String(describing: error))
            }
        }
    }

    public func recordAttempt(_ id: DeliveryID, delivered: Bool, result: String, retryAt: Date?, at now: Date) async throws(StoreError) {
        let state: DeliveryState = delivered ? .delivered : (retryAt == nil ? .failed : .pending)
        try await write("recording a notification attempt") { db throws(StoreError) in
            try Self.execute(db, "recording a notification attempt", """
                UPDATE notification_deliveries SET attempts = attempts + 1, state = ?, next_attempt_ms = ?, last_result = ?,
                    updated_at_ms = ? WHERE id = ?
                """, [state.rawValue, delivered ? nil : retryAt.map(StoragePrecision.milliseconds), result,
                      StoragePrecision.milliseconds(now), id.rawValue])
        }
    }

    public func deliveries(userID: UserID, limit: Int) async throws(StoreError) -> [Delivery] {
        try await read("reading the delivery log") { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.deliveryColumns) FROM notification_deliveries n JOIN notification_channels c ON c.id = n.channel_id
                WHERE c.user_id = ? ORDER BY n.id DESC LIMIT ?
                """, arguments: [userID.rawValue, limit]).map(Self.delivery)
        }
    }

    static func channel(_ row: Row, offset: Int) throws(StoreError) -> NotificationChannel {
        let kind: String = row[offset + 2], text: String = row[offset + 3], secret: String? = row[offset + 4]
        guard let url = URL(string: text) else {
            throw .database(operation: "reading a notification channel", message: "stored URL '\(text)' is invalid")
        }
        let channelKind: ChannelKind = kind == "webhook" ? .webhook(url: url, secret: secret ?? "") : .ntfy(url: url, token: secret)
        return NotificationChannel(id: ChannelID(rawValue: row[offset]), userID: UserID(rawValue: row[offset + 1]), kind: channelKind)
    }

    static func delivery(_ row: Row) throws -> Delivery {
        let json: String = row[2], state: String = row[3], next: Int64? = row[5]
        let message = try JSONDecoder().decode(NotificationMessage.self, from: Data(json.utf8))
        return Delivery(id: DeliveryID(rawValue: row[0]), channel: try channel(row, offset: 8), message: message,
                        state: DeliveryState(rawValue: state) ?? .failed, attempts: row[4],
                        nextAttemptAt: next.map(StoragePrecision.date(milliseconds:)), lastResult: row[6],
                        updatedAt: StoragePrecision.date(milliseconds: row[7]))
    }
}
