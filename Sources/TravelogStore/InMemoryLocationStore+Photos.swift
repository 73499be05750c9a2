import Foundation

extension InMemoryLocationStore: PhotoStore {
    public func addPhoto(_ record: PhotoRecord, userID: UserID) async throws(StoreError) -> (photo: StoredPhoto, added: Bool) {
        try withState { (state) throws(StoreError) -> (photo: StoredPhoto, added: Bool) in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            if let deviceID = record.deviceID, state.devices[deviceID]?.userID != userID { throw .unknownDevice(deviceID) }
            if let kept = state.photos.values.first(where: { $0.userID == userID && $0.record.digest == record.digest }) {
                return (kept, false)
            }
            let photo = StoredPhoto(id: PhotoID(rawValue: state.makeID()), userID: userID, record: record.rounded)
            state.photos[photo.id] = photo
            return (photo, true)
        }
    }

    public func photo(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto? {
        withState { state in state.photos[id].flatMap { $0.userID == userID ? $0 : nil } }
    }

    public func photos(_ query: PhotoQuery) async throws(StoreError) -> [StoredPhoto] {
        let found = withState { state in state.photos.values.filter(query.matches) }.sorted { lhs, rhs in
            switch (lhs.record.takenAt, rhs.record.takenAt) {
            case let (left?, right?) where left != right: left < right
            case (_?, nil): true
            case (nil, _?): false
            default: lhs.id < rhs.id
            }
        }
        return query.limit.map { Array(found.prefix(max(0, $0))) } ?? found
    }

    public func relocatePhoto(id: PhotoID, userID: UserID, path: String) async throws(StoreError) -> Bool {
        withState { state in
            guard state.photos[id]?.userID == userID else { return false }
            state.photos[id]?.record.path = path
            return true
        }
    }

    public func deletePhoto(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto? {
        withState { state in
            guard let photo = state.photos[id], photo.userID == userID else { return nil }
            state.photos[id] = nil
            return photo
        }
    }
}
