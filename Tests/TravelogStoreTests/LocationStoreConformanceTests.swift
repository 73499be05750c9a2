import Foundation
import Testing
import TravelogCore
import TravelogStore

/// The contract of `LocationStore`: every backend passes every test here.
@Suite("LocationStore conformance")
struct LocationStoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func fix(_ latitude: Double, _ longitude: Double, secondsAfter seconds: Double) -> Location {
        Location(coordinate: Coordinate(validLatitude: latitude, longitude: longitude)!,
                 altitudeMeters: 12.5, horizontalAccuracyMeters: 8, verticalAccuracyMeters: 3,
                 speedMetersPerSecond: 1.4, speedAccuracyMetersPerSecond: 0.5, courseDegrees: 90,
                 courseAccuracyDegrees: 10, timestamp: t0.addingTimeInterval(seconds))
    }

    /// A store with one user ("ada") and one device ("phone").
    static func prepared(_ factory: StoreFactory) async throws -> (any TravelogStore, User, Device) {
        let store = try await factory.make()
        let user = try await store.addUser(named: "ada")
        let device = try await store.addDevice(named: "phone", userID: user.id)
        return (store, user, device)
    }

    @Test("a stored location comes back with every field, at storage precision", arguments: StoreFactory.all)
    func roundTrip(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        var original = Self.fix(52.123456789, 13.987654321, secondsAfter: 0.0004)
        original.utcOffsetSeconds = 3600
        let summary = try await store.insert([StoredLocation(deviceID: phone.id, location: original, source: .overland)])
        #expect(summary == InsertSummary(inserted: 1, duplicates: 0))
        let read = try await store.locations(LocationQuery(userID: ada.id))
        #expect(read.count == 1)
        let stored = try #require(read.first)
        #expect(stored.location == StoragePrecision.rounded(original))
        #expect(stored.location.coordinate.latitude == 52.1234568)
        #expect(stored.location.coordinate.longitude == 13.9876543)
        #expect(stored.location.altitudeMeters == 12.5)
        #expect(stored.location.speedMetersPerSecond == 1.4)
        #expect(stored.location.utcOffsetSeconds == 3600)
        #expect(stored.source == .overland)
        #expect(stored.deviceID == phone.id)
    }

    @Test("the same fix is stored once, even from another endpoint", arguments: StoreFactory.all)
    func idempotent(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let batch = (0..<5).map { StoredLocation(deviceID: phone.id, location: Self.fix(1, 2, secondsAfter: Double($0)), source: .owntracks) }
        #expect(try await store.insert(batch) == InsertSummary(inserted: 5, duplicates: 0))
        var again = batch
        again[0].source = .api
        // 1e-8° apart is the same key at storage precision.
        again[1].location.coordinate = Coordinate(validLatitude: 1.00000001, longitude: 2)!
        #expect(try await store.insert(again) == InsertSummary(inserted: 0, duplicates: 5))
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 5)
    }

    @Test("a batch of many rows, repeating itself and stored fixes, stores each fix once with its own fields and finds it by area",
          arguments: StoreFactory.all)
    func largeBatch(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        // 150 fixes over two days, one minute apart, moving north by 0.001° a fix (more than one
        // multi-row statement's 64, and an odd tail).
        let fixes = (0..<150).map { Self.fix(10 + Double($0) / 1000, 20, secondsAfter: Double($0) * 1_200) }
        #expect(try await store.insert(fixes.prefix(10).map { StoredLocation(deviceID: phone.id, location: $0, source: .api) })
                == InsertSummary(inserted: 10, duplicates: 0))
        var batch = fixes.enumerated().map { index, fix in
            StoredLocation(deviceID: phone.id, location: fix, source: index % 2 == 0 ? .overland : .owntracks)
        }
        batch.insert(batch[70], at: 100)  // a repeat inside the batch, in another statement than its first
        batch.insert(batch[3], at: 4)
        #expect(try await store.insert(batch) == InsertSummary(inserted: 140, duplicates: 12))
        let read = try await store.locations(LocationQuery(userID: ada.id))
        #expect(read.map(\.location.timestamp) == fixes.map { StoragePrecision.rounded($0).timestamp })
        #expect(read.prefix(10).allSatisfy { $0.source == .api })
        #expect(read[11].source == .owntracks && read[12].source == .overland)
        #expect(read[149].location.coordinate.latitude == 10.149)
        // The area query narrows by each day's bounding box, which must cover every new row.
        let north = LocationQuery(userID: ada.id, area: CoordinateBox(south: 10.1395, west: 19.9, north: 10.2, east: 20.1))
        #expect(try await store.locations(north).count == 10)
        // The device's count (on SQLite the sum of its day boxes' counts) takes each fix once, though
        // statements mixing repeats and new fixes span midnight.
        #expect(try await store.deviceSummaries(userID: ada.id).map(\.locationCount) == [150])
        #expect(try await store.insert(batch.reversed()) == InsertSummary(inserted: 0, duplicates: 152))
        #expect(try await store.deviceSummaries(userID: ada.id).map(\.locationCount) == [150])
    }

    @Test("a batch with an unknown device stores nothing", arguments: StoreFactory.all)
    func atomicBatch(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let batch = [
            StoredLocation(deviceID: phone.id, location: Self.fix(1, 2, secondsAfter: 0), source: .api),
            StoredLocation(deviceID: DeviceID(rawValue: 424_242), location: Self.fix(1, 2, secondsAfter: 1), source: .api),
        ]
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 424_242))) { try await store.insert(batch) }
        #expect(try await store.locations(LocationQuery(userID: ada.id)).isEmpty)
    }

    /// An import as the importer runs it: begun, fed batch by batch, finished.
    static func imported(_ batches: [[Location]], into store: any TravelogStore, device: Device,
                         provenance: ImportProvenance, tally: ImportTally) async throws -> ImportRecord {
        let id = try await store.beginImport(deviceID: device.id, provenance: provenance)
        var summary = InsertSummary()
        for batch in batches {
            summary = summary + (try await store.insert(batch.map {
                StoredLocation(deviceID: device.id, location: $0, source: .fileImport, importID: id)
            }))
        }
        return try await store.finishImport(id, summary: summary, tally: tally)
    }

    @Test("a discarded import leaves the history as it was, also when a phone wrote meanwhile", arguments: StoreFactory.all)
    func discardedImport(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let before = Self.fix(5, 5, secondsAfter: -1)
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: before, source: .owntracks)])
        let provenance = ImportProvenance(fileName: "broken.gpx", contentSHA256: nil, format: "gpx")
        let id = try await store.beginImport(deviceID: phone.id, provenance: provenance)
        _ = try await store.insert((0..<100).map {
            StoredLocation(deviceID: phone.id, location: Self.fix(1, 2, secondsAfter: Double($0)), source: .fileImport, importID: id)
        })
        let live = Self.fix(3, 3, secondsAfter: 500)
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: live, source: .overland)])
        #expect(try await store.imports(userID: ada.id).isEmpty, "a running import is not listed")
        try await store.discardImport(id)
        let kept = try await store.locations(LocationQuery(userID: ada.id)).map(\.location)
        #expect(kept == [before, live].map(StoragePrecision.rounded))
        #expect(try await store.imports(userID: ada.id).isEmpty)
        #expect(try await store.deviceSummaries(userID: ada.id).first?.locationCount == 2)
    }

    @Test("deleting a finished import removes what it stored, only for its owner, once", arguments: StoreFactory.all)
    func deletedImport(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let live = Self.fix(5, 5, secondsAfter: -1)
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: live, source: .owntracks)])
        // Two days of the first file; the second file repeats one of them and adds its own.
        let first = (0..<40).map { Self.fix(1, 2 + Double($0) * 1e-3, secondsAfter: Double($0) * 3_600) }
        let second = [first[10], Self.fix(7, 7, secondsAfter: 200_000)]
        let gone = try await Self.imported([first], into: store, device: phone,
                                           provenance: ImportProvenance(fileName: "a.gpx", contentSHA256: nil, format: "gpx"),
                                           tally: ImportTally(rejected: 0))
        let kept = try await Self.imported([second, [live]], into: store, device: phone,
                                           provenance: ImportProvenance(fileName: "b.gpx", contentSHA256: nil, format: "gpx"),
                                           tally: ImportTally(rejected: 0))
        #expect(kept.inserted == 1)
        let bob = try await store.addUser(named: "bob")
        #expect(try await store.deleteImport(gone.id, userID: bob.id) == nil, "another user's import")
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 42)

        let deleted = try #require(try await store.deleteImport(gone.id, userID: ada.id))
        #expect(deleted.record == gone)
        #expect(deleted.span == StoragePrecision.rounded(first[0]).timestamp...StoragePrecision.rounded(first[39]).timestamp)
        let left = try await store.locations(LocationQuery(userID: ada.id)).map(\.location)
        #expect(left == [live, second[1]].map(StoragePrecision.rounded), "the live fix and the other import's own stay")
        #expect(try await store.imports(userID: ada.id) == [kept])
        #expect(try await store.deviceSummaries(userID: ada.id).first?.locationCount == 2)
        #expect(try await store.deleteImport(gone.id, userID: ada.id) == nil, "deleting twice")
        #expect(try await store.deleteImport(ImportID(rawValue: 987_654), userID: ada.id) == nil)

        // The fixes the deleted import held may be stored again, by anything.
        #expect(try await store.insert([StoredLocation(deviceID: phone.id, location: first[0], source: .api)])
                == InsertSummary(inserted: 1, duplicates: 0))
        #expect(try await store.deviceSummaries(userID: ada.id).first?.locationCount == 3)
    }

    @Test("finishing an import that is not running fails and changes nothing", arguments: StoreFactory.all)
    func finishUnknownImport(factory: StoreFactory) async throws {
        let (store, ada, _) = try await Self.prepared(factory)
        await #expect(throws: StoreError.self) {
            _ = try await store.finishImport(ImportID(rawValue: 987), summary: InsertSummary(), tally: ImportTally(rejected: 0))
        }
        #expect(try await store.imports(userID: ada.id).isEmpty)
    }

    @Test("re-importing a file stores nothing twice and records both imports", arguments: StoreFactory.all)
    func reimport(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let provenance = ImportProvenance(fileName: "day.gpx", contentSHA256: "ab", format: "gpx")
        let fixes = (0..<50).map {
            var fix = Self.fix(48, 11 + Double($0) * 1e-4, secondsAfter: Double($0))
            fix.utcOffsetSeconds = 7200
            return fix
        }
        // The second batch overlaps the first inside the file.
        let first = try await Self.imported([Array(fixes[0..<30]), Array(fixes[25..<50])], into: store, device: phone,
                                            provenance: provenance, tally: ImportTally(rejected: 3, contentSHA256: "cd"))
        #expect(first.inserted == 50)
        #expect(first.duplicates == 5)
        #expect(first.rejected == 3)
        #expect(first.provenance.contentSHA256 == "cd")
        let second = try await Self.imported([fixes], into: store, device: phone, provenance: provenance,
                                             tally: ImportTally(rejected: 0))
        #expect(second.inserted == 0)
        #expect(second.duplicates == 50)
        let stored = try await store.locations(LocationQuery(userID: ada.id))
        #expect(stored.count == 50)
        #expect(stored.allSatisfy { $0.source == .fileImport && $0.importID == first.id && $0.location.utcOffsetSeconds == 7200 })
        let recorded = try await store.imports(userID: ada.id)
        #expect(recorded.map(\.id) == [second.id, first.id])
        #expect(recorded.map(\.provenance.contentSHA256) == ["ab", "cd"])
    }
}
