import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogPostgres
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// An account archive (`travelog export --everything`, `travelog import ada.zip`) brings an account
/// back whole into an empty server: the move fixture's ada (two devices, 305 fixes, a journal with a
/// renamed, hidden and merged visit, places, regions with transitions and states, zones, shares,
/// photos, rejected items) exported and imported has every row she had, but the secrets.
@Suite("Account archives")
struct AccountArchiveTests {
    static let ada = UserID(rawValue: 1)

    /// Ada's rows of every table an archive carries, as they should come back: secrets empty, and
    /// what the import sets (administrator, enabled, new share digests) left out of the comparison.
    static func adasRows(_ store: any StoreTableAccess, user: Int64 = 1) async throws -> [String: [StoreRow]] {
        let dump = try await StoreMoveFixture.dump(store)
        var rows: [String: [StoreRow]] = [:]
        for table in StoreTable.all where AccountArchive.leftOutTables[table.name] == nil {
            let owner = table.userLink == .none ? table.columns.firstIndex { $0.name == "id" }! : 0
            let withheld = (AccountArchive.withheldColumns[table.name] ?? []).union(
                ["users": ["administrator", "disabled"], "shares": ["token_sha256"]][table.name] ?? [])
            rows[table.name] = (dump[table.name] ?? []).filter { $0[owner] == .integer(user) }.map { row in
                var row = row
                for (index, column) in table.columns.enumerated() where withheld.contains(column.name) { row[index] = .null }
                return row
            }
        }
        return rows
    }

    static func roundTrip(_ source: some TravelogStore & StoreTableAccess, _ destination: some TravelogStore & StoreTableAccess) async throws {
        try await UserDeletionTests.fill(source)
        let path = TestDirectory.makeFolder("archive").appendingPathComponent("ada.zip").path
        let exported = try await AccountArchive.export(userID: ada, from: source, to: path)
        #expect(exported.locations == 305)
        #expect(AccountArchive.isAccountArchive(path: path))
        let imported = try await AccountArchive.importArchive(path: path, into: destination)
        #expect(imported.rows == exported.rows)
        #expect(imported.friendsInvited.isEmpty && imported.friendsSkipped.count == 1, "her friend has no account on the new server")

        // Every table, row by row (the journal's visits with their titles, hidden flags and merges among them).
        let expected = try await adasRows(source), found = try await adasRows(destination)
        for table in expected.keys.sorted() { #expect(found[table] == expected[table], "table \(table)") }
        #expect((expected["visits"]?.count ?? 0) > 0 && (expected["regions"]?.count ?? 0) > 0 && (expected["zones"]?.count ?? 0) > 0)
        // Read through the stores' own APIs: statistics, regions, zones.
        let devices = try await source.devices(userID: ada)
        for period in [CalendarPeriod.day, .year] {
            let before = try await HistoryStatistics.compute(store: source, userID: ada, devices: devices, from: nil, to: nil,
                                                             period: period, timeZone: TimeZone(identifier: "UTC")!)
            let after = try await HistoryStatistics.compute(store: destination, userID: ada, devices: try await destination.devices(userID: ada),
                                                            from: nil, to: nil, period: period, timeZone: TimeZone(identifier: "UTC")!)
            #expect(after.periods == before.periods)
            #expect(after.total == before.total)
        }
        #expect(try await destination.regions(userID: ada) == source.regions(userID: ada))
        #expect(try await destination.zones(userID: ada) == source.zones(userID: ada))
        let user = try #require(try await destination.user(id: ada))
        #expect(user.isAdministrator && !user.isDisabled)
        #expect(try await destination.passwordHash(userID: ada) == nil)

        // A server with a user of that name refuses it, and stores nothing more.
        await #expect(throws: AccountArchiveError.userExists(name: "ada")) {
            try await AccountArchive.importArchive(path: path, into: destination)
        }
        #expect(try await destination.users().count == 1)
    }

    @Test("into a server with other users, the account becomes a new user: every id moves past the server's, nothing collides, and its statistics and zones are the same")
    func intoAServerWithUsers() async throws {
        let folder = TestDirectory.makeFolder("archive-shift")
        let source = try SQLiteLocationStore(path: folder.appendingPathComponent("source.sqlite").path)
        try await UserDeletionTests.fill(source)
        let path = folder.appendingPathComponent("ada.zip").path
        let exported = try await AccountArchive.export(userID: Self.ada, from: source, to: path)
        let destination = try SQLiteLocationStore(path: folder.appendingPathComponent("destination.sqlite").path)
        let carol = try await destination.addUser(named: "carol")
        let phone = try await destination.addDevice(named: "phone", userID: carol.id)
        _ = try await destination.insert((0..<3).map { index in
            StoredLocation(deviceID: phone.id, location: LocationStoreConformanceTests.fix(48.1, 11.5, secondsAfter: Double(index) * 60), source: .api)
        })
        let imported = try await AccountArchive.importArchive(path: path, into: destination)
        #expect(imported.rows == exported.rows)
        let moved = try #require(try await destination.user(named: "ada"))
        #expect(moved.id != Self.ada && moved.id != carol.id && !moved.isAdministrator)
        // As many rows in every table, and the same through the stores' APIs.
        let expected = try await Self.adasRows(source), found = try await Self.adasRows(destination, user: moved.id.rawValue)
        for table in expected.keys.sorted() { #expect(found[table]?.count == expected[table]?.count, "table \(table)") }
        let utc = TimeZone(identifier: "UTC")!
        for period in [CalendarPeriod.day, .month] {
            let before = try await HistoryStatistics.compute(store: source, userID: Self.ada, devices: try await source.devices(userID: Self.ada),
                                                             from: nil, to: nil, period: period, timeZone: utc)
            let after = try await HistoryStatistics.compute(store: destination, userID: moved.id,
                                                            devices: try await destination.devices(userID: moved.id),
                                                            from: nil, to: nil, period: period, timeZone: utc)
            #expect(after.periods == before.periods && after.total == before.total && after.total.locationCount == 305)
        }
        #expect(try await destination.zones(userID: moved.id).map(\.definition) == source.zones(userID: Self.ada).map(\.definition))
        #expect(try await destination.regions(userID: moved.id).map(\.definition) == source.regions(userID: Self.ada).map(\.definition))
        #expect(try await destination.locations(LocationQuery(userID: carol.id)).count == 3)
        // New rows of the server go on after the moved ids.
        let next = try await destination.addDevice(named: "tablet", userID: carol.id)
        #expect(try await destination.devices(userID: moved.id).allSatisfy { $0.id.rawValue < next.id.rawValue })
    }

    @Test("friendships travel by name: a friend with an account of that name on the new server is invited again (waiting, no grant), one without is skipped")
    func friendsByName() async throws {
        let folder = TestDirectory.makeFolder("archive-friends")
        let source = try SQLiteLocationStore(path: folder.appendingPathComponent("source.sqlite").path)
        let ada = try await source.addUser(named: "ada"), bob = try await source.addUser(named: "bob"), carol = try await source.addUser(named: "carol")
        _ = try await source.addFriendInvitation(from: ada.id, to: bob.id, at: Date())
        #expect(try await source.acceptFriendInvitation(from: ada.id, to: bob.id, at: Date()))
        #expect(try await source.setFriendHistoryShared(true, by: ada.id, with: bob.id))
        _ = try await source.addFriendInvitation(from: carol.id, to: ada.id, at: Date())
        let path = folder.appendingPathComponent("ada.zip").path
        let exported = try await AccountArchive.export(userID: ada.id, from: source, to: path)
        #expect(exported.rows["friends"] == 2)
        let zip = try ZipArchive(path: path)
        var reader = LineReader(source: try zip.contents(of: try #require(zip.entry(named: "friends.jsonl"))))
        var lines = ""
        while let line = try reader.next() { lines += String(decoding: line.bytes, as: UTF8.self) + "\n" }
        #expect(lines == #"{"name":"bob","sharesMyHistory":true,"sharesTheirHistory":false,"state":"friend"}"# + "\n"
                + #"{"name":"carol","sharesMyHistory":false,"sharesTheirHistory":false,"state":"invitedYou"}"# + "\n")

        let destination = try SQLiteLocationStore(path: folder.appendingPathComponent("destination.sqlite").path)
        _ = try await destination.addUser(named: "dave")
        let newBob = try await destination.addUser(named: "bob")
        let imported = try await AccountArchive.importArchive(path: path, into: destination)
        #expect(imported.friendsInvited == ["bob"] && imported.friendsSkipped == ["carol"] && imported.rows["friends"] == 2)
        let newAda = try #require(try await destination.user(named: "ada"))
        let restored = try await destination.friendships(userID: newAda.id)
        #expect(restored.count == 1)
        #expect(restored.first?.inviterID == newAda.id && restored.first?.inviteeID == newBob.id)
        #expect(restored.first?.acceptedAt == nil && restored.first?.sharesHistory(by: newAda.id) == false, "bob accepts first; history is granted again after")
    }

    @Test("SQLite: an account exported and imported into an empty server has the same rows, journal, statistics, regions and zones")
    func sqlite() async throws {
        let folder = TestDirectory.makeFolder("archive-sqlite")
        try await Self.roundTrip(try SQLiteLocationStore(path: folder.appendingPathComponent("source.sqlite").path),
                                 try SQLiteLocationStore(path: folder.appendingPathComponent("destination.sqlite").path))
    }

    @Test("PostgreSQL: the same round trip, from PostgreSQL to PostgreSQL",
          .enabled(if: PostgresTestServer.url != nil, "no PostgreSQL server"))
    func postgres() async throws {
        let source = try await PostgresTestServer.makeStore(), destination = try await PostgresTestServer.makeStore()
        defer { source.close(); destination.close() }
        try await Self.roundTrip(source, destination)
    }

    @Test("with the photos' files, each original travels stored as it is, named by its digest, and lands in the new server's folder; a file gone is listed, not fatal")
    func photoFiles() async throws {
        let folder = TestDirectory.makeFolder("archive-photos")
        let source = try SQLiteLocationStore(path: folder.appendingPathComponent("source.sqlite").path)
        let ada = try await source.addUser(named: "ada")
        let original = folder.appendingPathComponent("IMG 0001.JPG")
        let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try bytes.write(to: original)
        let kept = String(repeating: "ab", count: 32), gone = String(repeating: "cd", count: 32)
        for (digest, path) in [(kept, original.path), (gone, folder.appendingPathComponent("moved-away.heic").path)] {
            _ = try await source.addPhoto(PhotoRecord(digest: digest, path: path, mimeType: "image/jpeg", byteCount: bytes.count,
                                                      positionSource: .unplaced, addedAt: Date()), userID: ada.id)
        }
        let plain = folder.appendingPathComponent("plain.zip").path, whole = folder.appendingPathComponent("whole.zip").path
        let without = try await AccountArchive.export(userID: ada.id, from: source, to: plain)
        let plainNames = try ZipArchive(path: plain).entries.map(\.name)
        #expect(without.rows[AccountArchive.photoFilesKey] == nil && !plainNames.contains { $0.hasPrefix("photos/") })
        let withFiles = try await AccountArchive.export(userID: ada.id, from: source, to: whole, photoFiles: true)
        #expect(withFiles.rows[AccountArchive.photoFilesKey] == 1 && withFiles.photoFilesMissing == [gone])
        let archive = try ZipArchive(path: whole)
        let entry = try #require(archive.entry(named: "photos/\(kept).jpg"))
        #expect(entry.uncompressedSizeBytes == bytes.count && entry.compressionMethod == .stored, "kept as it is, though it would deflate well")
        #expect(try #require(archive.entry(named: "tables/photos.jsonl")).compressionMethod == .deflated)
        var manifest = LineReader(source: try archive.contents(of: try #require(archive.entry(named: "manifest.json"))))
        var text = ""
        while let line = try manifest.next() { text += String(decoding: line.bytes, as: UTF8.self) }
        #expect(text.contains("photoFilesMissing") && text.contains(gone), "the missing one is named")
        #expect(text.contains("photos/\(kept).jpg"))

        let destination = try SQLiteLocationStore(path: folder.appendingPathComponent("destination.sqlite").path)
        let uploads = folder.appendingPathComponent("server-photos")
        let imported = try await AccountArchive.importArchive(path: whole, into: destination, photoFolder: { user in
            uploads.appendingPathComponent("originals/\(user.rawValue)")
        })
        #expect(imported.rows[AccountArchive.photoFilesKey] == 1)
        let user = try #require(try await destination.user(named: "ada"))
        let photos = try await destination.photos(PhotoQuery(userID: user.id))
        let landed = try #require(photos.first { $0.record.digest == kept })
        #expect(landed.record.path == uploads.appendingPathComponent("originals/\(user.id.rawValue)/\(kept).jpg").path && landed.record.uploaded)
        #expect(try Data(contentsOf: URL(fileURLWithPath: landed.record.path)) == bytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: landed.record.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(photos.first { $0.record.digest == gone }?.record.path == folder.appendingPathComponent("moved-away.heic").path,
                "a photo without its file keeps the path it had")
    }

    @Test("a file that is not an account archive is told apart, and a damaged row stops the import with nothing stored")
    func damaged() async throws {
        let folder = TestDirectory.makeFolder("archive-damaged")
        let path = folder.appendingPathComponent("ada.zip").path
        let source = try SQLiteLocationStore(path: folder.appendingPathComponent("source.sqlite").path)
        try await UserDeletionTests.fill(source)
        try await AccountArchive.export(userID: Self.ada, from: source, to: path)
        #expect(!AccountArchive.isAccountArchive(path: folder.appendingPathComponent("source.sqlite").path))
        // The same archive with a visit whose arrival is text.
        let parts = folder.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: parts.appendingPathComponent("tables"), withIntermediateDirectories: true)
        let archive = try ZipArchive(path: path)
        let writer = try ZipArchiveWriter(path: folder.appendingPathComponent("damaged.zip").path)
        for entry in archive.entries {
            var reader = LineReader(source: try archive.contents(of: entry))
            var text = ""
            while let line = try reader.next() { text += String(decoding: line.bytes, as: UTF8.self) + "\n" }
            if entry.name == "tables/visits.jsonl" { text = text.replacingOccurrences(of: "\"arrival_ms\":", with: "\"arrival_ms\":\"soon\",\"x\":") }
            let file = parts.appendingPathComponent(entry.name.replacingOccurrences(of: "/", with: "_"))
            try Data(text.utf8).write(to: file)
            try writer.addFile(named: entry.name, contentsOf: file.path)
        }
        try writer.close()
        let destination = try SQLiteLocationStore(path: folder.appendingPathComponent("destination.sqlite").path)
        await #expect(throws: AccountArchiveError.self) {
            try await AccountArchive.importArchive(path: folder.appendingPathComponent("damaged.zip").path, into: destination)
        }
        #expect(try await destination.users().isEmpty)
        #expect(try await destination.rowCount(of: StoreTable.locations) == 0)
    }
}
