import Foundation
import Testing
import TravelogCore
import TravelogSQLite
import TravelogStore

@Suite("SQLite store")
struct SQLiteLocationStoreTests {
    @Test("what is stored survives closing and reopening the file")
    func persistence() async throws {
        let path = StoreFactory.temporaryDatabasePath()
        do {
            let store = try SQLiteLocationStore(path: path)
            let ada = try await store.addUser(named: "ada")
            let phone = try await store.addDevice(named: "phone", userID: ada.id)
            _ = try await store.insert([StoredLocation(deviceID: phone.id,
                                                       location: LocationStoreConformanceTests.fix(1, 2, secondsAfter: 0),
                                                       source: .manual)])
        }
        let reopened = try SQLiteLocationStore(path: path)
        let ada = try #require(try await reopened.user(named: "ada"))
        #expect(try await reopened.locations(LocationQuery(userID: ada.id)).count == 1)
        #expect(try await reopened.storageSizeBytes() ?? 0 > 0)
    }

    @Test("batches stored at the same time share transactions, and one that fails leaves the others stored")
    func concurrentBatches() async throws {
        let store = try SQLiteLocationStore(path: StoreFactory.temporaryDatabasePath())
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let missing = DeviceID(rawValue: phone.id.rawValue + 1000)
        // 40 batches of 20 fixes at once; every eighth names a device that does not exist, and every
        // fifth repeats the fixes of the batch before it.
        let outcomes = try await withThrowingTaskGroup(of: (Int, Result<InsertSummary, StoreError>).self) { group in
            for index in 0..<40 {
                let fixes = (0..<20).map { second in
                    LocationStoreConformanceTests.fix(1, 2, secondsAfter: Double((index % 5 == 4 ? index - 1 : index) * 20 + second))
                }
                let device = index % 8 == 7 ? missing : phone.id
                group.addTask {
                    do throws(StoreError) {
                        return (index, .success(try await store.insert(fixes.map { StoredLocation(deviceID: device, location: $0, source: .overland) })))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            return try await group.reduce(into: [Int: Result<InsertSummary, StoreError>]()) { $0[$1.0] = $1.1 }
        }
        var insertedTotal = 0
        for index in 0..<40 {
            let outcome = try #require(outcomes[index])
            if index % 8 == 7 {
                guard case .failure(.unknownDevice(let device)) = outcome else {
                    Issue.record("batch \(index): \(outcome)")
                    continue
                }
                #expect(device == missing)
            } else {
                let summary = try outcome.get()
                #expect(summary.inserted + summary.duplicates == 20, "batch \(index)")
                insertedTotal += summary.inserted
            }
        }
        // Distinct fix times among the good batches: a repeating batch adds what its twin did not.
        var distinct = Set<Int>()
        for index in 0..<40 where index % 8 != 7 {
            distinct.formUnion(((index % 5 == 4 ? index - 1 : index) * 20)..<((index % 5 == 4 ? index - 1 : index) * 20 + 20))
        }
        let stored = try await store.locations(LocationQuery(userID: ada.id))
        #expect(stored.count == distinct.count)
        #expect(insertedTotal == distinct.count, "each fix counted once as inserted, the repeats as duplicates")
    }

    @Test("devices' reports recorded beside batches share their transactions; a report for a missing device fails alone")
    func concurrentReports() async throws {
        let store = try SQLiteLocationStore(path: StoreFactory.temporaryDatabasePath())
        let ada = try await store.addUser(named: "ada")
        let phones = [try await store.addDevice(named: "a", userID: ada.id), try await store.addDevice(named: "b", userID: ada.id)]
        let missing = DeviceID(rawValue: phones[1].id.rawValue + 1000)
        // As the MQTT subscriber's connections do: a message's fix, then its device's report, 60 at once.
        let failures = await withTaskGroup(of: StoreError?.self) { group in
            for index in 0..<60 {
                group.addTask {
                    let device = index % 10 == 9 ? missing : phones[index % 2].id
                    let fix = LocationStoreConformanceTests.fix(1, 2, secondsAfter: Double(index))
                    do throws(StoreError) {
                        if device != missing {
                            _ = try await store.insert([StoredLocation(deviceID: device, location: fix, source: .owntracks)])
                        }
                        try await store.recordReport(DeviceReport(receivedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
                                                                  latestFix: fix, batteryPercent: Double(index)), deviceID: device)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [StoreError]()) { if let error = $1 { $0.append(error) } }
        }
        #expect(failures.count == 6)
        #expect(failures.allSatisfy { if case .unknownDevice(missing) = $0 { true } else { false } })
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 54)
        let states = try await store.deviceStates(userID: ada.id)
        for phone in phones {
            // The newest fix of each device is the one its report carried last (reports merge by fix time).
            let report = try #require(states[phone.id]?.lastReport)
            #expect(report.latestFix?.timestamp == LocationStoreConformanceTests.fix(1, 2, secondsAfter: phone == phones[0] ? 58 : 57).timestamp)
        }
    }

    @Test("regions read again come from the decoded cache only while their rows are unchanged, whichever store changed them")
    func decodedRegions() async throws {
        let path = StoreFactory.temporaryDatabasePath()
        let store = try SQLiteLocationStore(path: path)
        let other = try SQLiteLocationStore(path: path)  // another process (the CLI) on the same file
        let user = try await store.addUser(named: "ada")
        let home = try Coordinate(latitude: 52.5, longitude: 13.4)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let added = try await store.addRegion(try RegionDefinition(name: "Home", shape: .circle(Circle(center: home, radiusMeters: 100))),
                                              userID: user.id, at: now)
        #expect(try await store.regions(userID: user.id).map(\.definition.name) == ["Home"])
        // The same millisecond, so only the row's other values tell the change.
        _ = try await other.updateRegion(id: added.id, userID: user.id,
                                         try RegionDefinition(name: "Home", shape: .circle(Circle(center: home, radiusMeters: 250))), at: now)
        #expect(try await store.regions(userID: user.id).first?.definition.monitoredRegion(identifier: "x").equivalentRadiusMeters == 250)
        _ = try await other.updateRegion(id: added.id, userID: user.id,
                                         try RegionDefinition(name: "Flat", shape: .circle(Circle(center: home, radiusMeters: 250))), at: now)
        #expect(try await store.regions(userID: user.id).map(\.definition.name) == ["Flat"])
        #expect(try await other.removeRegion(id: added.id, userID: user.id))
        #expect(try await store.regions(userID: user.id).isEmpty)
    }

    @Test("a file that is not a database is refused with its path")
    func notADatabase() throws {
        let path = StoreFactory.temporaryDatabasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("this is not SQLite, just text that is long enough to be read as a header".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try SQLiteLocationStore(path: path)
        } throws: { error in
            guard case .cannotOpen(let failedPath, _) = error as? StoreError else { return false }
            return failedPath == path
        }
    }
}

@Suite("SQLite store written before values were checked")
struct SQLitePoisonedValuesTests {
    @Test("absurd values stored by an older version read back as unknown, never as a trap or infinity")
    func absurdValuesReadBackAsUnknown() async throws {
        let path = StoreFactory.temporaryDatabasePath()
        do {
            // The store takes what it is given (checking is the write path's job), as older versions did.
            let store = try SQLiteLocationStore(path: path)
            let ada = try await store.addUser(named: "ada")
            let phone = try await store.addDevice(named: "phone", userID: ada.id)
            var poisoned = LocationStoreConformanceTests.fix(1, 2, secondsAfter: 0)
            poisoned.horizontalAccuracyMeters = 1e20
            poisoned.verticalAccuracyMeters = 1e308
            poisoned.altitudeMeters = 1e308
            poisoned.speedMetersPerSecond = 1e20
            poisoned.courseDegrees = 1e20
            _ = try await store.insert([StoredLocation(deviceID: phone.id, location: poisoned, source: .api)])
        }
        let reopened = try SQLiteLocationStore(path: path)
        let ada = try #require(try await reopened.user(named: "ada"))
        let fix = try #require(try await reopened.locations(LocationQuery(userID: ada.id)).first?.location)
        #expect(fix.horizontalAccuracyMeters == -1)
        #expect(fix.verticalAccuracyMeters == -1)
        #expect(fix.altitudeMeters == nil)
        #expect(fix.speedMetersPerSecond == -1)
        #expect(fix.courseDegrees == -1)
        #expect(fix.coordinate.latitude == 1)
    }
}
