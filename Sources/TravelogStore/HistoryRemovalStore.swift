/// Deletions of fixes, as a number per user that every process on the database reads alike.
///
/// A server keeps a user's map index in memory and follows what it stores itself; a deletion made
/// by another process (`travelog retention run`, `travelog zones add --drop`, a second server on
/// PostgreSQL) reaches it through this number: the server reads every user's once a second and
/// builds a user's index anew when the number moved.
public protocol HistoryRemovalStore: Sendable {
    /// For each user, a number that grows whenever fixes of theirs are deleted
    /// (`ZoneStore.deleteLocations`, `DeviceStore.deleteDevice`, `LocationStore.deleteImport` and
    /// `discardImport`), in the deletion's own transaction. A user missing had no deletion.
    /// - Complexity: O(users who ever had fixes deleted): one small table read whole.
    func historyRemovals() async throws(StoreError) -> [UserID: Int64]
}
