import Foundation

/// Where the items that phone apps sent and Travelog could not store are kept for their user
/// (SPEC, "Ingest and trust": a batch's good items are stored, the bad ones set aside).
public protocol QuarantineStore: Sendable {
    /// Keeps items; one whose fingerprint is kept already for its user is not kept again.
    /// - Returns: how many were new.
    func quarantine(_ items: [NewRejectedItem]) async throws(StoreError) -> Int
    /// The user's rejected items, newest first, at most `limit`.
    func rejectedItems(userID: UserID, limit: Int) async throws(StoreError) -> [RejectedItem]
    /// How many rejected items the user has.
    func rejectedItemCount(userID: UserID) async throws(StoreError) -> Int
    /// Deletes the user's items with these ids, or all of them when `ids` is `nil` (other users'
    /// ids are ignored). - Returns: how many were deleted.
    func deleteRejectedItems(userID: UserID, ids: [RejectedItemID]?) async throws(StoreError) -> Int
}
