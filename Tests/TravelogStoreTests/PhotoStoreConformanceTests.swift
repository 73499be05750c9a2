import Foundation
import Testing
import TravelogCore
import TravelogStore

@Suite("PhotoStore conformance")
struct PhotoStoreConformanceTests {
    static func record(_ digest: String, takenAt seconds: Double?, latitude: Double? = nil, longitude: Double? = nil,
                       deviceID: DeviceID? = nil) -> PhotoRecord {
        PhotoRecord(digest: digest, path: "/photos/\(digest).jpg", deviceID: deviceID, mimeType: "image/jpeg", byteCount: 1234,
                    pixelWidth: 4000, pixelHeight: 3000, orientation: 6, cameraMake: "Canon", cameraModel: "EOS 'R'; DROP",
                    cameraTime: "2024-05-07T09:33:04.046", takenAt: seconds.map { Date(timeIntervalSince1970: $0) },
                    offsetSource: "OffsetTimeOriginal",
                    coordinate: latitude.flatMap { latitude in longitude.flatMap { Coordinate(validLatitude: latitude, longitude: $0) } },
                    altitudeMeters: latitude == nil ? nil : 12.5, directionDegrees: latitude == nil ? nil : 271.25,
                    accuracyMeters: latitude == nil ? nil : 4.5, positionSource: latitude == nil ? .unplaced : .ownGPS,
                    unplacedReason: latitude == nil ? "no fix within 300 s" : nil, addedAt: Date(timeIntervalSince1970: 1_700_000_000.1234))
    }

    @Test("a photo is kept once per digest and user, read back field for field at storage precision", arguments: StoreFactory.all)
    func keepsOncePerDigest(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let photos = try #require(store as? any PhotoStore, "\(factory.name) keeps no photos")
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let record = Self.record("aa", takenAt: 1_715_074_384.0461, latitude: 60.123456789, longitude: 24.987654321, deviceID: phone.id)
        let (first, added) = try await photos.addPhoto(record, userID: ada.id)
        #expect(added)
        #expect(first.record == record.rounded)
        #expect(first.record.coordinate?.latitude == 60.1234568)
        #expect(try await photos.photo(id: first.id, userID: ada.id) == first)
        var moved = record
        moved.path = "/elsewhere/aa.jpg"
        let (again, addedAgain) = try await photos.addPhoto(moved, userID: ada.id)
        #expect(!addedAgain)
        #expect(again == first)
        // The same file for another user is that user's photo; neither sees the other's.
        let (bobs, bobAdded) = try await photos.addPhoto(Self.record("aa", takenAt: nil), userID: bob.id)
        #expect(bobAdded)
        #expect(bobs.id != first.id)
        #expect(try await photos.photo(id: first.id, userID: bob.id) == nil)
        #expect(try await photos.photos(PhotoQuery(userID: bob.id)).map(\.id) == [bobs.id])
        #expect(try await photos.relocatePhoto(id: first.id, userID: bob.id, path: "/x") == false)
        #expect(try await photos.relocatePhoto(id: first.id, userID: ada.id, path: "/elsewhere/aa.jpg"))
        #expect(try await photos.photo(id: first.id, userID: ada.id)?.record.path == "/elsewhere/aa.jpg")
        #expect(try await photos.deletePhoto(id: first.id, userID: bob.id) == nil)
        #expect(try await photos.deletePhoto(id: first.id, userID: ada.id)?.id == first.id)
        #expect(try await photos.photo(id: first.id, userID: ada.id) == nil)
        #expect(try await photos.deletePhoto(id: first.id, userID: ada.id) == nil)
    }

    @Test("an unknown user, or a device of another user, is refused and nothing is kept", arguments: StoreFactory.all)
    func refusesStrangers(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let photos = try #require(store as? any PhotoStore)
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        let bobsPhone = try await store.addDevice(named: "phone", userID: bob.id)
        let unknown = UserID(rawValue: 999_999)
        await #expect(throws: StoreError.unknownUser(unknown)) { try await photos.addPhoto(Self.record("a", takenAt: 1), userID: unknown) }
        await #expect(throws: StoreError.unknownDevice(bobsPhone.id)) {
            try await photos.addPhoto(Self.record("a", takenAt: 1, deviceID: bobsPhone.id), userID: ada.id)
        }
        #expect(try await photos.photos(PhotoQuery(userID: ada.id)).isEmpty)
    }

    @Test("the list is by instant (undated last), narrowed by time [from, to) and a box, also across the 180th meridian",
          arguments: StoreFactory.all)
    func lists(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let photos = try #require(store as? any PhotoStore)
        let ada = try await store.addUser(named: "ada")
        let late = try await photos.addPhoto(Self.record("late", takenAt: 3000, latitude: 60.2, longitude: 24.9), userID: ada.id).photo
        let undated = try await photos.addPhoto(Self.record("undated", takenAt: nil, latitude: 60.1, longitude: 24.8), userID: ada.id).photo
        let early = try await photos.addPhoto(Self.record("early", takenAt: 1000, latitude: -17.0, longitude: 179.5), userID: ada.id).photo
        let middle = try await photos.addPhoto(Self.record("middle", takenAt: 2000), userID: ada.id).photo
        #expect(try await photos.photos(PhotoQuery(userID: ada.id)).map(\.id) == [early.id, middle.id, late.id, undated.id])
        #expect(try await photos.photos(PhotoQuery(userID: ada.id, limit: 2)).map(\.id) == [early.id, middle.id])
        let from = Date(timeIntervalSince1970: 2000), to = Date(timeIntervalSince1970: 3000)
        #expect(try await photos.photos(PhotoQuery(userID: ada.id, from: from, to: to)).map(\.id) == [middle.id])
        #expect(try await photos.photos(PhotoQuery(userID: ada.id, from: from)).map(\.id) == [middle.id, late.id])
        let helsinki = CoordinateBox(south: 60.0, west: 24.0, north: 61.0, east: 25.0)
        #expect(try await photos.photos(PhotoQuery(userID: ada.id, box: helsinki)).map(\.id) == [late.id, undated.id])
        let fiji = CoordinateBox(south: -18, west: 179, north: -16, east: -179)
        #expect(try await photos.photos(PhotoQuery(userID: ada.id, box: fiji)).map(\.id) == [early.id])
        #expect(try await photos.photos(PhotoQuery(userID: ada.id, from: from, box: helsinki)).map(\.id) == [late.id])
        // The pins: the same photos for every query as the list (its limit aside), reduced to id, instant and position.
        let bob = try await store.addUser(named: "bob")
        _ = try await photos.addPhoto(Self.record("bobs", takenAt: 2500, latitude: 60.2, longitude: 24.9), userID: bob.id)
        for query in [PhotoQuery(userID: ada.id), PhotoQuery(userID: ada.id, from: from, to: to), PhotoQuery(userID: ada.id, from: from),
                      PhotoQuery(userID: ada.id, box: helsinki), PhotoQuery(userID: ada.id, box: fiji), PhotoQuery(userID: ada.id, limit: 1)] {
            var whole = query
            whole.limit = nil
            let listed: [PhotoPin] = try await photos.photos(whole).map(PhotoPin.init).sorted { $0.id < $1.id }
            let pins: [PhotoPin] = try await photos.photoPins(query).sorted { $0.id < $1.id }
            #expect(pins == listed, "\(query)")
        }
        #expect(try await photos.photoPins(PhotoQuery(userID: ada.id)).first { $0.id == middle.id }?.coordinate == nil)
        // By ids: the user's only, by id, each once.
        let byIDs = try await photos.photos(ids: [late.id, early.id, late.id, PhotoID(rawValue: 999_999)], userID: ada.id)
        #expect(byIDs == [early, late].sorted { $0.id < $1.id })
        #expect(try await photos.photos(ids: [late.id], userID: bob.id).isEmpty)
        #expect(try await photos.photos(ids: [], userID: ada.id).isEmpty)
    }

    @Test("a user's photos go with the user", arguments: StoreFactory.all)
    func goWithTheUser(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let photos = try #require(store as? any PhotoStore)
        _ = try await store.addUser(named: "admin")
        let ada = try await store.addUser(named: "ada")
        let kept = try await photos.addPhoto(Self.record("a", takenAt: 1), userID: ada.id).photo
        try await store.deleteUser(id: ada.id)
        #expect(try await photos.photo(id: kept.id, userID: ada.id) == nil)
        #expect(try await photos.photos(PhotoQuery(userID: ada.id)).isEmpty)
    }
}
