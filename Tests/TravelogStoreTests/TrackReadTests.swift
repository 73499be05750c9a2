import Foundation
import Synchronization
import Testing
import TravelogCore
@testable import TravelogPostgres
import TravelogStore

/// `forEachTrackBatch`: the fixes a map draws (time, coordinate, horizontal accuracy), the same on
/// every backend as the narrowed rows of `forEachBatch`; on PostgreSQL read as arrays in chunks.
@Suite("Track reads")
struct TrackReadTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    /// Two devices; the phone's fixes include several in one millisecond, an accuracy of 0 and one
    /// beyond the plausible range (a store may read either as unknown, its rows and tracks alike).
    static func prepared(_ store: any TravelogStore) async throws -> (User, Device, Device) {
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let watch = try await store.addDevice(named: "watch", userID: ada.id)
        var batch: [StoredLocation] = []
        for second in 0..<40 {
            // Seconds 10 and 11 hold three fixes each, in one millisecond.
            for tie in 0..<(second == 10 || second == 11 ? 3 : 1) {
                let location = Location(coordinate: Coordinate(validLatitude: 48 + Double(second) / 1000 + Double(tie) / 1e5,
                                                               longitude: 11 - Double(second) / 1000)!,
                                        altitudeMeters: 500, horizontalAccuracyMeters: second == 3 ? 0 : (second == 4 ? 1e9 : 5 + Double(second)),
                                        speedMetersPerSecond: 2, courseDegrees: 45, timestamp: t0.addingTimeInterval(Double(second)))
                batch.append(StoredLocation(deviceID: phone.id, location: location, source: .overland))
            }
            batch.append(StoredLocation(deviceID: watch.id, location: Location(
                coordinate: Coordinate(validLatitude: -33, longitude: 151 + Double(second) / 100)!,
                horizontalAccuracyMeters: 3, timestamp: t0.addingTimeInterval(Double(second) + 0.5)), source: .api))
        }
        _ = try await store.insert(batch)
        return (ada, phone, watch)
    }

    static func tracks(_ store: any TravelogStore, _ query: LocationQuery, batchSize: Int) async throws -> [[Location]] {
        let batches = Mutex<[[Location]]>([])
        try await store.forEachTrackBatch(query, batchSize: batchSize) { batch in batches.withLock { $0.append(batch) } }
        return batches.withLock { $0 }
    }

    static func rows(_ store: any TravelogStore, _ query: LocationQuery) async throws -> [Location] {
        try await store.locations(query).map { Location.trackFix($0.location) }
    }

    /// The fixes in order of time; those of one millisecond in an order of their own (the stores
    /// promise no order among them).
    static func canonical(_ fixes: [Location]) -> [Location] {
        fixes.sorted { ($0.timestamp, $0.coordinate.latitude, $0.coordinate.longitude)
            < ($1.timestamp, $1.coordinate.latitude, $1.coordinate.longitude) }
    }

    @Test("the fixes of the rows, time, coordinate and accuracy only, in batches, for one device, a range, several devices",
          arguments: StoreFactory.all)
    func sameAsRows(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let (ada, phone, watch) = try await Self.prepared(store)
        let queries = [
            LocationQuery(userID: ada.id, deviceIDs: [phone.id]),
            LocationQuery(userID: ada.id, deviceIDs: [phone.id], from: Self.t0.addingTimeInterval(10),
                          to: Self.t0.addingTimeInterval(30)),
            LocationQuery(userID: ada.id, deviceIDs: [phone.id], from: Self.t0.addingTimeInterval(100)),
            LocationQuery(userID: ada.id, deviceIDs: [phone.id, watch.id], from: Self.t0.addingTimeInterval(5)),
            LocationQuery(userID: ada.id, deviceIDs: [watch.id], limit: 3, newestFirst: true),
        ]
        for query in queries {
            let expected = try await Self.rows(store, query)
            let batches = try await Self.tracks(store, query, batchSize: 7)
            let read = batches.flatMap { $0 }
            #expect(batches.allSatisfy { !$0.isEmpty && $0.count <= 7 })
            #expect(read.map(\.timestamp) == expected.map(\.timestamp), "\(query)")
            #expect(Self.canonical(read) == Self.canonical(expected), "\(query)")
        }
        let phoneTrack = try await Self.tracks(store, queries[0], batchSize: 1000).flatMap { $0 }
        try #require(phoneTrack.count == 44)
        #expect(phoneTrack[5].horizontalAccuracyMeters == 10)
        #expect(phoneTrack.allSatisfy { $0.altitudeMeters == nil && $0.speedMetersPerSecond == -1 && $0.courseDegrees == -1 })
    }

    @Test("PostgreSQL reads a device in chunks: every chunk size gives every fix once, ties in a millisecond kept together",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresLocationStoreTests.skipped)))
    func chunks() async throws {
        let store = try await PostgresTestServer.makeStore()
        let (ada, phone, _) = try await Self.prepared(store)
        for query in [LocationQuery(userID: ada.id, deviceIDs: [phone.id]),
                      LocationQuery(userID: ada.id, deviceIDs: [phone.id], from: Self.t0.addingTimeInterval(10),
                                    to: Self.t0.addingTimeInterval(12))] {
            let expected = Self.canonical(try await Self.rows(store, query))
            for chunkFixes in [1, 2, 3, 4, 5, 50, 1000] {
                let read = Mutex<[Location]>([])
                try await store.forEachTrackBatch(query, batchSize: 2, chunkFixes: chunkFixes) { batch in
                    read.withLock { $0 += batch }
                }
                let fixes = read.withLock { $0 }
                #expect(fixes.map(\.timestamp) == expected.map(\.timestamp), "chunks of \(chunkFixes), \(query)")
                #expect(Self.canonical(fixes) == expected, "chunks of \(chunkFixes), \(query)")
            }
        }
        // An error of the body ends the read with it.
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await store.forEachTrackBatch(LocationQuery(userID: ada.id, deviceIDs: [phone.id]), batchSize: 1,
                                              chunkFixes: 2) { _ in throw Stop() }
        }
    }
}
