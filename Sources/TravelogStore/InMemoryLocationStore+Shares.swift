import Foundation

extension InMemoryLocationStore {
    public func addShare(_ record: ShareRecord, tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare {
        try withState { (state) throws(StoreError) in
            guard state.users[record.userID] != nil else { throw .unknownUser(record.userID) }
            var rounded = record
            rounded.from = Self.millisecond(record.from)
            rounded.to = Self.millisecond(record.to)
            rounded.createdAt = Self.millisecond(record.createdAt)
            rounded.expiresAt = record.expiresAt.map(Self.millisecond)
            let share = StoredShare(id: ShareID(rawValue: state.makeID()), record: rounded)
            state.shares[share.id] = share
            state.shareDigests[tokenDigest] = share.id
            return share
        }
    }

    public func share(tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare? {
        withState { state in state.shareDigests[tokenDigest].flatMap { state.shares[$0] } }
    }

    public func shares(userID: UserID) async throws(StoreError) -> [StoredShare] {
        withState { state in state.shares.values.filter { $0.record.userID == userID }.sorted { $0.id > $1.id } }
    }

    public func revokeShare(id: ShareID, userID: UserID, at date: Date) async throws(StoreError) -> StoredShare? {
        withState { state in
            guard var share = state.shares[id], share.record.userID == userID else { return nil }
            if share.revokedAt == nil { share.revokedAt = Self.millisecond(date) }
            state.shares[id] = share
            return share
        }
    }

    public func recordShareView(id: ShareID, at date: Date) async throws(StoreError) {
        withState { state in
            state.shares[id]?.views += 1
            state.shares[id]?.lastViewedAt = Self.millisecond(date)
        }
    }

    private static func millisecond(_ date: Date) -> Date {
        StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date))
    }
}
