import Foundation
import Synchronization
import Testing
import TravelogCore
import TravelogStore

@Suite("LocationStore queries")
struct LocationStoreQueryTests {
    typealias C = LocationStoreConformanceTests

    @Test("a time range includes its start and excludes its end", arguments: StoreFactory.all)
    func timeRange(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await C.prepared(factory)
        _ = try await store.insert((0..<10).map {
            StoredLocation(deviceID: phone.id, location: C.fix(10, 10, secondsAfter: Double($0) * 60), source: .api)
        })
        let query = LocationQuery(userID: ada.id, from: C.t0.addingTimeInterval(120), to: C.t0.addingTimeInterval(300))
        let times = try await store.locations(query).map { $0.location.timestamp.timeIntervalSince(C.t0) }
        #expect(times == [120, 180, 240])
        var newest = LocationQuery(userID: ada.id, limit: 2)
        newest.newestFirst = true
        #expect(try await store.locations(newest).map { $0.location.timestamp.timeIntervalSince(C.t0) } == [540, 480])
    }

    @Test("an area query finds only what is inside, also across the 180th meridian", arguments: StoreFactory.all)
    func area(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await C.prepared(factory)
        let places: [(Double, Double)] = [(-17.8, 178.4), (-17.7, -179.9), (-17.7, 170), (40, 0), (40.5, 0.5)]
        _ = try await store.insert(places.enumerated().map { index, place in
            // Days apart, so several day boxes are involved.
            StoredLocation(deviceID: phone.id, location: C.fix(place.0, place.1, secondsAfter: Double(index) * 90_000), source: .api)
        })
        let fiji = CoordinateBox(south: -18, west: 178, north: -17, east: -179)
        let inFiji = try await store.locations(LocationQuery(userID: ada.id, area: fiji))
        #expect(inFiji.map(\.location.coordinate.longitude) == [178.4, -179.9])
        let europe = CoordinateBox(south: 39.9, west: -0.1, north: 40.1, east: 0.1)
        #expect(try await store.locations(LocationQuery(userID: ada.id, area: europe)).count == 1)
    }

    @Test("nobody reads another user's locations", arguments: StoreFactory.all)
    func scopedToUser(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await C.prepared(factory)
        let bob = try await store.addUser(named: "bob")
        let bobsPhone = try await store.addDevice(named: "phone", userID: bob.id)
        _ = try await store.insert([
            StoredLocation(deviceID: phone.id, location: C.fix(1, 1, secondsAfter: 0), source: .api),
            StoredLocation(deviceID: bobsPhone.id, location: C.fix(2, 2, secondsAfter: 0), source: .api),
        ])
        #expect(try await store.locations(LocationQuery(userID: ada.id)).map(\.deviceID) == [phone.id])
        // Naming bob's device in ada's query does not reveal it.
        #expect(try await store.locations(LocationQuery(userID: ada.id, deviceIDs: [bobsPhone.id])).isEmpty)
        #expect(try await store.deviceSummaries(userID: ada.id).map(\.locationCount) == [1])
    }

    @Test("locations stream in batches, oldest first", arguments: StoreFactory.all)
    func batches(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await C.prepared(factory)
        _ = try await store.insert((0..<25).map {
            StoredLocation(deviceID: phone.id, location: C.fix(0, Double($0) * 0.01, secondsAfter: Double(25 - $0)), source: .api)
        })
        let sizes = Mutex<[Int]>([])
        let order = Mutex<[Double]>([])
        try await store.forEachBatch(LocationQuery(userID: ada.id), batchSize: 10) { batch in
            sizes.withLock { $0.append(batch.count) }
            order.withLock { $0 += batch.map { $0.location.timestamp.timeIntervalSince(C.t0) } }
        }
        #expect(sizes.withLock { $0 } == [10, 10, 5])
        let expected: [Double] = (1...25).map { Double($0) }
        #expect(order.withLock { $0 } == expected)
    }

    @Test("a device summary counts and spans its fixes", arguments: StoreFactory.all)
    func summary(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await C.prepared(factory)
        _ = try await store.addDevice(named: "watch", userID: ada.id)
        _ = try await store.insert((0..<3).map {
            StoredLocation(deviceID: phone.id, location: C.fix(5, 5, secondsAfter: Double($0) * 10), source: .api)
        })
        let summaries = try await store.deviceSummaries(userID: ada.id)
        #expect(summaries.map(\.device.name) == ["phone", "watch"])
        #expect(summaries[0].locationCount == 3)
        #expect(summaries[0].firstTimestamp == C.t0)
        #expect(summaries[0].lastTimestamp == C.t0.addingTimeInterval(20))
        #expect(summaries[1].locationCount == 0)
        #expect(summaries[1].firstTimestamp == nil)
    }
}
