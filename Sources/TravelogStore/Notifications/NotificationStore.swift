import Foundation

/// Notification channels, and an outbox of deliveries that survives restarts. Every backend passes
/// the same conformance suite (Tests/TravelogStoreTests/NotificationStoreConformanceTests.swift).
///
/// A delivery is one message to one channel. It is `pending` until an attempt delivers it, or
/// until the sender gives up (`failed`); both stay in the log. Its key is unique per channel, so
/// an event is queued once per channel however often it is notified, restarts included.
public protocol NotificationStore: Sendable {
    /// Adds a channel for the user. - Throws: `StoreError.unknownUser`.
    func addChannel(userID: UserID, kind: ChannelKind) async throws(StoreError) -> NotificationChannel
    /// The user's channels, oldest first.
    func channels(userID: UserID) async throws(StoreError) -> [NotificationChannel]
    /// Removes a channel of the user, and its deliveries. - Returns: whether there was one.
    func removeChannel(id: ChannelID, userID: UserID) async throws(StoreError) -> Bool

    /// Queues a message for each of the user's channels, once: a key queued before for a channel
    /// (even long delivered, even before a restart) queues nothing again.
    /// - Returns: the deliveries queued now.
    func enqueue(_ message: NotificationMessage, userID: UserID, at now: Date) async throws(StoreError) -> [DeliveryID]

    /// Pending deliveries whose next attempt is due, oldest first (read only: see `claimDueDeliveries`).
    func dueDeliveries(at now: Date, limit: Int) async throws(StoreError) -> [Delivery]

    /// Takes pending deliveries that are due, oldest first, and makes them not due again until
    /// `leaseUntil`, in one transaction: two senders (the server and `travelog notify test` on
    /// the same file) never take the same delivery. A sender records each attempt before the lease
    /// ends; one that dies first leaves the delivery to be retried when the lease ends.
    /// - Parameters:
    ///   - ids: only these deliveries (`nil`: any of them).
    ///   - busy: none of these channels' deliveries (the sender has one of theirs in flight).
    /// - Returns: the deliveries taken, with `nextAttemptAt == leaseUntil`.
    func claimDueDeliveries(at now: Date, leaseUntil: Date, limit: Int,
                            among ids: Set<DeliveryID>?, excludingChannels busy: Set<ChannelID>) async throws(StoreError) -> [Delivery]

    /// Records an attempt: delivered, or pending again at `retryAt`, or failed for good when
    /// `retryAt` is `nil`.
    func recordAttempt(_ id: DeliveryID, delivered: Bool, result: String, retryAt: Date?, at now: Date) async throws(StoreError)

    /// The user's deliveries, newest first (the delivery log).
    func deliveries(userID: UserID, limit: Int) async throws(StoreError) -> [Delivery]
}

extension NotificationStore {
    /// Takes due deliveries of any channel (see the requirement).
    public func claimDueDeliveries(at now: Date, leaseUntil: Date, limit: Int,
                                   among ids: Set<DeliveryID>?) async throws(StoreError) -> [Delivery] {
        try await claimDueDeliveries(at: now, leaseUntil: leaseUntil, limit: limit, among: ids, excludingChannels: [])
    }
}
