import Foundation

extension InMemoryLocationStore {
    public func addChannel(userID: UserID, kind: ChannelKind) async throws(StoreError) -> NotificationChannel {
        try withState { (state) throws(StoreError) -> NotificationChannel in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            let channel = NotificationChannel(id: ChannelID(rawValue: state.makeID()), userID: userID, kind: kind)
            state.channels[channel.id] = channel
            return channel
        }
    }

    public func channels(userID: UserID) async throws(StoreError) -> [NotificationChannel] {
        withState { $0.channels.values.filter { $0.userID == userID }.sorted { $0.id < $1.id } }
    }

    public func removeChannel(id: ChannelID, userID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            guard state.channels[id]?.userID == userID else { return false }
            state.channels[id] = nil
            state.deliveries = state.deliveries.filter { $0.value.channel.id != id }
            return true
        }
    }

    public func enqueue(_ message: NotificationMessage, userID: UserID, at now: Date) async throws(StoreError) -> [DeliveryID] {
        withState { state in
            var queued: [DeliveryID] = []
            for channel in state.channels.values.filter({ $0.userID == userID }).sorted(by: { $0.id < $1.id })
            where !state.deliveries.values.contains(where: { $0.channel.id == channel.id && $0.message.key == message.key }) {
                let delivery = Delivery(id: DeliveryID(rawValue: state.makeID()), channel: channel, message: message,
                                        state: .pending, attempts: 0, nextAttemptAt: now, lastResult: nil, updatedAt: now)
                state.deliveries[delivery.id] = delivery
                queued.append(delivery.id)
            }
            return queued
        }
    }

    public func dueDeliveries(at now: Date, limit: Int) async throws(StoreError) -> [Delivery] {
        withState { state in
            Array(state.deliveries.values
                .filter { $0.state == .pending && ($0.nextAttemptAt ?? now) <= now }
                .sorted { $0.id < $1.id }.prefix(limit))
        }
    }

    public func claimDueDeliveries(at now: Date, leaseUntil: Date, limit: Int,
                                   among ids: Set<DeliveryID>?, excludingChannels busy: Set<ChannelID>) async throws(StoreError) -> [Delivery] {
        withState { state in
            let due = state.deliveries.values
                .filter { $0.state == .pending && ($0.nextAttemptAt ?? now) <= now && ids?.contains($0.id) != false }
                .filter { !busy.contains($0.channel.id) }
                .sorted { $0.id < $1.id }.prefix(limit)
            return due.map { delivery in
                var claimed = delivery
                claimed.nextAttemptAt = leaseUntil
                state.deliveries[claimed.id] = claimed
                return claimed
            }
        }
    }

    public func recordAttempt(_ id: DeliveryID, delivered: Bool, result: String, retryAt: Date?, at now: Date) async throws(StoreError) {
        withState { state in
            guard var delivery = state.deliveries[id] else { return }
            delivery.attempts += 1
            delivery.lastResult = result
            delivery.updatedAt = now
            delivery.state = delivered ? .delivered : (retryAt == nil ? .failed : .pending)
            delivery.nextAttemptAt = delivered ? nil : retryAt
            state.deliveries[id] = delivery
        }
    }

    public func deliveries(userID: UserID, limit: Int) async throws(StoreError) -> [Delivery] {
        withState { state in
            Array(state.deliveries.values.filter { $0.channel.userID == userID }.sorted { $0.id > $1.id }.prefix(limit))
        }
    }
}
