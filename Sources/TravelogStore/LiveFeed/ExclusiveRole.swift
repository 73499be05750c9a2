/// A store shared by several server processes that can let one of them, and only one, hold a
/// named role at a time (the MQTT subscription: two subscribers with one client id would take the
/// broker's session from each other). The role passes to a waiting process when its holder ends,
/// dies, or loses the database. A store of one process does not conform: its process holds every role.
public protocol ExclusiveRole: Sendable {
    /// Waits until this process holds `role`, then runs `body` while it holds it. When the hold is
    /// lost (the database connection dropped), `body`'s task is cancelled and this throws.
    /// - Throws: `CancellationError` when the caller is cancelled while waiting; what `body` throws;
    ///   the database's error when the hold was lost.
    func holdingRole(_ role: String, _ body: @escaping @Sendable () async throws -> Void) async throws
}
