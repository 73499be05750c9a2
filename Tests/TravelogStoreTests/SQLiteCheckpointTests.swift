import Foundation
import Testing
import TravelogCore
import TravelogSQLite
import TravelogStore

/// `BackgroundCheckpointStore` on SQLite: what a retention run calls after each batch.
@Suite("SQLite checkpoints beside the writer")
struct SQLiteCheckpointTests {
    static func bytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
    }

    @Test("a checkpoint copies the log's committed pages into the database file; the rows read the same after")
    func copiesTheLog() async throws {
        let path = StoreFactory.temporaryDatabasePath()
        let store = try SQLiteLocationStore(path: path)
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        // Fewer pages than SQLite's own checkpoint waits for (1,000): they stay in the log.
        let fixes = (0..<2_000).map {
            StoredLocation(deviceID: phone.id, location: LocationStoreConformanceTests.fix(52.5, 13.4 + Double($0) * 1e-5, secondsAfter: Double($0)),
                           source: .overland)
        }
        _ = try await store.insert(fixes)
        let before = Self.bytes(path)
        #expect(Self.bytes(path + "-wal") > 0)
        await store.checkpointBesideWriter()
        let after = Self.bytes(path)
        #expect(after > before, "the database file grew from \(before) to \(after) bytes")
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 2_000)
        // Writes go on after it, and a second one with nothing new is harmless.
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: LocationStoreConformanceTests.fix(52.6, 13.5, secondsAfter: 9_000),
                                                   source: .overland)])
        await store.checkpointBesideWriter()
        await store.checkpointBesideWriter()
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 2_001)
    }
}
