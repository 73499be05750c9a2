import Foundation
import TravelogCore

/// A user's photos (issue 32): one record per content digest, the original referenced where it is.
/// Not part of `TravelogStore`: callers ask `store as? any PhotoStore`. Every backend keeps them in
/// `photos` (SQLite's 012_photos, PostgreSQL's 011_photos); a user's photos go with the user, and a
/// removed device leaves its photos without a device.
public protocol PhotoStore: Sendable {
    /// Keeps a photo for its user, unless the user has one with the same content digest already.
    /// - Returns: the stored photo (the one kept before, unchanged, when `added` is false).
    /// - Throws: `StoreError.unknownUser`, `.unknownDevice` (a device of another user included).
    func addPhoto(_ record: PhotoRecord, userID: UserID) async throws(StoreError) -> (photo: StoredPhoto, added: Bool)
    /// The user's photo with this id; `nil` for an unknown id or another user's photo.
    func photo(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto?
    /// The user's photos matching the query, by instant (photos without one last), then id.
    func photos(_ query: PhotoQuery) async throws(StoreError) -> [StoredPhoto]
    /// Points the user's photo at the file where it is now (a moved original). - Returns: whether it was the user's.
    func relocatePhoto(id: PhotoID, userID: UserID, path: String) async throws(StoreError) -> Bool
    /// Forgets the user's photo (the file is the caller's). - Returns: what was deleted; `nil` for an unknown or another user's id.
    func deletePhoto(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto?
    /// The photos ``photos(_:)`` would return, reduced to what a map groups (id, instant, position), in
    /// no particular order and without the query's limit: a range of 100,000 photos read in a few
    /// tens of milliseconds, not the seconds of whole records.
    func photoPins(_ query: PhotoQuery) async throws(StoreError) -> [PhotoPin]
    /// The user's photos with these ids, by id (unknown ids and other users' photos left out).
    func photos(ids: [PhotoID], userID: UserID) async throws(StoreError) -> [StoredPhoto]
}

extension PhotoStore {
    /// From the whole records (the in-memory store).
    public func photoPins(_ query: PhotoQuery) async throws(StoreError) -> [PhotoPin] {
        var whole = query
        whole.limit = nil
        return try await photos(whole).map(PhotoPin.init)
    }

    /// One at a time (the in-memory store).
    public func photos(ids: [PhotoID], userID: UserID) async throws(StoreError) -> [StoredPhoto] {
        var found: [StoredPhoto] = []
        for id in Set(ids).sorted() { if let photo = try await photo(id: id, userID: userID) { found.append(photo) } }
        return found
    }
}

/// A photo as a map groups it: ``PhotoStore/photoPins(_:)``.
public struct PhotoPin: Hashable, Sendable {
    public var id: PhotoID
    public var takenAt: Date?
    public var coordinate: Coordinate?

    public init(id: PhotoID, takenAt: Date?, coordinate: Coordinate?) {
        self.id = id
        self.takenAt = takenAt
        self.coordinate = coordinate
    }

    public init(_ photo: StoredPhoto) {
        self.init(id: photo.id, takenAt: photo.record.takenAt, coordinate: photo.record.coordinate)
    }
}

/// A photo's identifier in a store.
public struct PhotoID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// Which photos `PhotoStore.photos(_:)` returns.
public struct PhotoQuery: Hashable, Sendable {
    public var userID: UserID
    /// Taken at or after (inclusive); photos without an instant are left out when `from` or `to` is given.
    public var from: Date?
    /// Taken before (exclusive).
    public var to: Date?
    /// Only photos with a position inside the box.
    public var box: CoordinateBox?
    public var limit: Int?

    public init(userID: UserID, from: Date? = nil, to: Date? = nil, box: CoordinateBox? = nil, limit: Int? = nil) {
        self.userID = userID
        self.from = from
        self.to = to
        self.box = box
        self.limit = limit
    }

    /// Whether a stored photo matches (the in-memory store's filter, and the reference for the others).
    public func matches(_ photo: StoredPhoto) -> Bool {
        guard photo.userID == userID else { return false }
        if from != nil || to != nil {
            guard let milliseconds = photo.record.takenAt.map(StoragePrecision.milliseconds) else { return false }
            if let from, milliseconds < StoragePrecision.milliseconds(from) { return false }
            if let to, milliseconds >= StoragePrecision.milliseconds(to) { return false }
        }
        if let box {
            guard let coordinate = photo.record.coordinate,
                  box.contains(latitude: coordinate.latitude, longitude: coordinate.longitude) else { return false }
        }
        return true
    }
}
