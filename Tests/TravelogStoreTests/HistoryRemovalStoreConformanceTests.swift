import Foundation
import Testing
import TravelogCore
import TravelogStore

@Suite("HistoryRemovalStore conformance")
struct HistoryRemovalStoreConformanceTests {
    typealias Locations = LocationStoreConformanceTests

    @Test("a user's count grows with each deletion of their fixes (by key, an import discarded or deleted, a device), not with a deletion of nothing; per user; gone with the user",
          arguments: StoreFactory.all)
    func counts(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let counts = try #require(store as? any HistoryRemovalStore, "\(factory.name) counts no deletions")
        let bob = try await store.addUser(named: "bob"), ada = try await store.addUser(named: "ada")  // bob first: the administrator stays
        let phone = try await store.addDevice(named: "phone", userID: ada.id), watch = try await store.addDevice(named: "watch", userID: ada.id)
        let pixel = try await store.addDevice(named: "pixel", userID: bob.id)
        let fixes = (0..<4).map { StoredLocation(deviceID: phone.id, location: Locations.fix(52.5, 13.4, secondsAfter: Double($0)), source: .overland) }
        _ = try await store.insert(fixes + [StoredLocation(deviceID: pixel.id, location: Locations.fix(1, 1, secondsAfter: 0), source: .overland)])
        #expect(try await counts.historyRemovals().isEmpty, "storing deletes nothing")
        var seen: [Int64] = []
        func adaCount() async throws -> Int64 {
            let now = try await counts.historyRemovals()
            #expect(now[bob.id] == nil, "bob lost nothing")
            let count = try #require(now[ada.id])
            #expect(!seen.contains(count))
            seen.append(count)
            return count
        }
        #expect(try await store.deleteLocations([fixes[0].key], userID: ada.id) == 1)
        _ = try await adaCount()
        #expect(try await store.deleteLocations([fixes[0].key], userID: ada.id) == 0)
        #expect(try await store.deleteLocations([fixes[1].key], userID: bob.id) == 0, "not bob's to delete")
        #expect(try await counts.historyRemovals()[ada.id] == seen.last, "nothing deleted, nothing counted")

        let provenance = ImportProvenance(fileName: "a.gpx", contentSHA256: nil, format: "gpx")
        let running = try await store.beginImport(deviceID: watch.id, provenance: provenance)
        _ = try await store.insert([StoredLocation(deviceID: watch.id, location: Locations.fix(2, 2, secondsAfter: 9), source: .fileImport, importID: running)])
        try await store.discardImport(running)
        _ = try await adaCount()
        let record = try await Locations.imported([[Locations.fix(3, 3, secondsAfter: 20)]], into: store, device: watch,
                                                  provenance: provenance, tally: ImportTally(rejected: 0))
        #expect(try await store.deleteImport(record.id, userID: ada.id) != nil)
        _ = try await adaCount()
        try await store.deleteDevice(id: phone.id)
        _ = try await adaCount()
        #expect(seen.count == 4 && seen == seen.sorted(), "it grows")
        try await store.deleteUser(id: ada.id)
        #expect(try await counts.historyRemovals()[ada.id] == nil)
    }
}
