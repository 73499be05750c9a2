import Foundation
import TravelogFormats
import TravelogStore

extension AccountArchive {
    /// Whether the file is an account archive: a ZIP whose `manifest.json` says so (any version).
    public static func isAccountArchive(path: String) -> Bool {
        (try? manifest(of: ZipArchive(path: path), path: path)) != nil
    }

    static func manifest(of archive: ZipArchive, path: String) throws -> AccountArchiveManifest {
        guard let entry = archive.entry(named: "manifest.json"), entry.uncompressedSizeBytes < 1 << 20 else {
            throw AccountArchiveError.notAnAccountArchive(path: path)
        }
        var reader = LineReader(source: try archive.contents(of: entry))
        var bytes: [UInt8] = []
        while let line = try reader.next() { bytes += line.bytes + [0x0A] }
        guard let manifest = try? JSONDecoder().decode(AccountArchiveManifest.self, from: Data(bytes)),
              manifest.format == formatName else { throw AccountArchiveError.notAnAccountArchive(path: path) }
        return manifest
    }

    /// Stores the archive's account in the store as a new user: the same journal, statistics, regions
    /// and zones as where it came from. Into an empty store every row keeps its id; into one with
    /// users, every id moves past the store's largest of its table (and every reference with it), and
    /// the archive's user name must be free. The user has no password (`travelog user passwd`),
    /// their devices no tokens, their shares new token digests that no link opens; they are the
    /// administrator of an empty server, else not. A file that is not what the manifest says stops
    /// the import, and what was stored of it is deleted.
    ///
    /// An archive written with the photos' files (`photos/DIGEST.EXT`) puts each in `photoFolder(user)`
    /// (the server's folder of the user's uploads) and points its photo there; without a folder, or for a
    /// photo whose file the archive lacks, the photo keeps the path it had.
    /// - Throws: `AccountArchiveError` (`.userExists` when the name is taken), `FormatError`, `StoreError`.
    @discardableResult
    public static func importArchive(path: String, into store: any TravelogStore & StoreTableAccess,
                                     photoFolder: (@Sendable (UserID) -> URL)? = nil) async throws -> Summary {
        let archive = try ZipArchive(path: path)
        let manifest = try manifest(of: archive, path: path)
        guard manifest.version == formatVersion else { throw AccountArchiveError.unsupportedVersion(manifest.version) }
        let users = try await store.users()
        if users.contains(where: { $0.name.lowercased() == manifest.user.lowercased() }) {
            throw AccountArchiveError.userExists(name: manifest.user)
        }
        let ids = try await IDShift(store: store, empty: users.isEmpty)
        try await store.prepareMove()
        var summary = Summary()
        var userID: Int64?
        // The photos' files, by digest: only names of the shape an export writes are read.
        var photoEntries: [String: ZipEntry] = [:]
        for entry in archive.entries where entry.name.hasPrefix("photos/") {
            let digest = String(entry.name.dropFirst("photos/".count).prefix(while: { $0 != "." }))
            if isDigest(digest), photoFileName(digest: digest, path: entry.name) == entry.name { photoEntries[digest] = entry }
        }
        var extracted: [String] = []
        do {
            for table in tables {
                var count = 0
                if table.perDevice {
                    for entry in archive.entries where entry.name.hasPrefix("locations/") && entry.name.hasSuffix(".csv") {
                        count += try await appendCSV(entry, of: archive, table, userID: userID ?? 0, ids: ids, into: store)
                    }
                } else if let entry = archive.entry(named: fileName(of: table)) {
                    count = try await appendJSONLines(entry, of: archive, table, into: store) { row in
                        ids.shift(&row, table)
                        if table.name == "users" {
                            // An administrator (of an empty server) once the rest is in, so that a failed
                            // import may delete it.
                            if case .integer(let id) = row[0] { userID = id }
                            set(&row, table, "administrator", .integer(0))
                            set(&row, table, "disabled", .integer(0))
                        }
                        if table.name == "shares" {
                            // A new digest no token has: the old link does not open the imported share.
                            set(&row, table, "token_sha256", .text(randomDigest()))
                        }
                        if table.name == "photos", let photoFolder, let userID, let original = photoOriginal(row, table),
                           let entry = photoEntries[original.digest] {
                            let folder = photoFolder(UserID(rawValue: userID))
                            let destination = folder.appendingPathComponent(String(entry.name.dropFirst("photos/".count))).path
                            try extract(entry, of: archive, to: destination)
                            extracted.append(destination)
                            set(&row, table, "path", .text(destination))
                            set(&row, table, "uploaded", .integer(1))
                        }
                    }
                    if table.name == "photos", photoFolder != nil, !photoEntries.isEmpty { summary.rows[photoFilesKey] = extracted.count }
                }
                summary.rows[table.name] = count
            }
            try await store.finishMove()
            if let userID, users.isEmpty { _ = try await store.setAdministrator(true, userID: UserID(rawValue: userID)) }
            if let userID {
                (summary.friendsInvited, summary.friendsSkipped) = try await restoreFriends(of: archive, userID: UserID(rawValue: userID),
                                                                                             into: store)
                if archive.entry(named: friendsFileName) != nil {
                    summary.rows["friends"] = summary.friendsInvited.count + summary.friendsSkipped.count
                }
            }
        } catch {
            if let userID { try? await store.deleteUser(id: UserID(rawValue: userID)) }
            for file in extracted { try? FileManager.default.removeItem(atPath: file) }
            throw error
        }
        return summary
    }

    /// Writes an entry to `path` (0600, its folder made 0700), through a `.partial` file renamed once whole.
    static func extract(_ entry: ZipEntry, of archive: ZipArchive, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: partial) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial])
        }
        do {
            var source = try archive.contents(of: entry)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { break }
                try handle.write(contentsOf: buffer[0..<count])
            }
            try handle.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// How ids move: by the store's largest id of each table (nothing for an empty store), and every
    /// column that names a row of another table with that table's.
    struct IDShift: Sendable {
        /// The amount per table name.
        var offsets: [String: Int64] = [:]
        /// The table a reference column names.
        static let references = ["user_id": "users", "device_id": "devices", "import_id": "imports", "place_id": "places",
                                 "region_id": "regions", "channel_id": "notification_channels"]

        init(store: any StoreTableAccess, empty: Bool) async throws {
            guard !empty else { return }
            for table in StoreTable.all where table.key == ["id"] && !table.perDevice {
                if let last = try await store.lastKey(of: table, device: nil), case .integer(let id) = last[0] { offsets[table.name] = id }
            }
        }

        func shift(_ row: inout StoreRow, _ table: StoreTable) {
            guard !offsets.isEmpty else { return }
            for (index, column) in table.columns.enumerated() {
                let target = column.name == "id" ? table.name : Self.references[column.name]
                guard let target, let offset = offsets[target], case .integer(let id) = row[index] else { continue }
                row[index] = .integer(id + offset)
            }
        }
    }

    /// 64 random hexadecimal digits: a digest of a token nobody has.
    static func randomDigest() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func set(_ row: inout StoreRow, _ table: StoreTable, _ column: String, _ value: StoreValue) {
        if let index = table.columns.firstIndex(where: { $0.name == column }) { row[index] = value }
    }

    static func appendJSONLines(_ entry: ZipEntry, of archive: ZipArchive, _ table: StoreTable, into store: any StoreTableAccess,
                                _ adjust: (inout StoreRow) throws -> Void) async throws -> Int {
        var reader = LineReader(source: try archive.contents(of: entry))
        var batch: [StoreRow] = []
        var count = 0
        while let line = try reader.next() {
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
            var row = try AccountArchiveJSON.row(Data(line.bytes), table, file: entry.name, number: line.number)
            try adjust(&row)
            batch.append(row)
            if batch.count == 2_000 {
                try await store.append(batch, to: table)
                count += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
        try await store.append(batch, to: table)
        return count + batch.count
    }

    static func appendCSV(_ entry: ZipEntry, of archive: ZipArchive, _ table: StoreTable, userID: Int64, ids: IDShift,
                          into store: any StoreTableAccess) async throws -> Int {
        var reader = LineReader(source: try archive.contents(of: entry))
        guard let header = try reader.next() else { return 0 }
        guard String(decoding: header.bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == AccountArchiveCSV.header(table) else {
            throw AccountArchiveError.badRow(file: entry.name, line: 1, reason: "the header is not \(AccountArchiveCSV.header(table))")
        }
        var batch: [StoreRow] = []
        var count = 0
        while let line = try reader.next() {
            let text = String(decoding: line.bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if text.isEmpty { continue }
            // The user's id (not in the file) is the imported user's, shifted already.
            var row = try AccountArchiveCSV.row(text, table, userID: 0, file: entry.name, number: line.number)
            ids.shift(&row, table)
            row[0] = .integer(userID)
            batch.append(row)
            if batch.count == 5_000 {
                try await store.append(batch, to: table)
                count += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
        try await store.append(batch, to: table)
        return count + batch.count
    }
}
