import Foundation
import TravelogFormats
import TravelogStore

/// Everything of one account as one ZIP archive (`travelog export --everything`, `GET
/// /api/v1/account/export`), and back (`travelog import ada.zip`, a new user of any server).
///
/// The archive holds, in the tables' own layout (`StoreTable`, the same columns in SQLite and
/// PostgreSQL; docs/EXPORT.md describes each): `locations/device-ID.csv` per device (CSV with a
/// header, every stored field), `tables/NAME.jsonl` for every other table (JSON Lines, one object per
/// row, keyed by column), `manifest.json` (format, version, what each file is, row counts) and
/// `README.txt`. Rows name each other by id (moved past the server's own on import), so an import recreates the same journal
/// (visits with the user's renames, merges, deletions), statistics, regions and zones.
///
/// Left out: secrets (passwords' and tokens' digests, notification channels' secrets, OwnTracks
/// keys, share passwords) and what belongs to the server rather than the account (sessions,
/// delivery logs, two-factor secrets, friendships with its other users); see ``leftOutTables`` and
/// ``withheldColumns``. A share imported elsewhere cannot be opened with its old link.
public enum AccountArchive {
    /// `manifest.json`'s `format`.
    public static let formatName = "travelog-account"
    /// `manifest.json`'s `version`: what this Travelog writes and reads.
    public static let formatVersion = 1

    /// Tables not exported, with the reason written into the manifest.
    public static let leftOutTables: [String: String] = [
        "sessions": "logins belong to the server the account was on",
        "notification_deliveries": "the delivery log of the server that sent them",
        "two_factor": "the second factor's secret: turn two-factor login on again on the new server",
        "two_factor_recovery_codes": "digests of the second factor's recovery codes",
        "friendships": "friendships name other users of its server by id: they are in friends.jsonl by name",
    ]

    /// Columns written empty: secrets, or digests an attacker could test guesses against.
    public static let withheldColumns: [String: Set<String>] = [
        "users": ["password_hash"],
        "devices": ["token_sha256", "owntracks_secret"],
        "notification_channels": ["secret"],
        "shares": ["token_sha256", "password_hash"],
    ]

    /// What an export or import held: rows per table (locations included), by table name.
    public struct Summary: Sendable, Equatable {
        public var rows: [String: Int] = [:]
        public var locations: Int { rows["locations"] ?? 0 }
        /// An import's friends invited again (users of that name on this server), and those skipped (none here).
        public var friendsInvited: [String] = []
        public var friendsSkipped: [String] = []
        /// An export with the photos' files: the digests of photos whose original was not at its path.
        public var photoFilesMissing: [String] = []
    }

    /// The tables an archive carries, in the order an import stores them (parents first).
    static var tables: [StoreTable] { StoreTable.all.filter { leftOutTables[$0.name] == nil } }

    static func fileName(of table: StoreTable) -> String { "tables/\(table.name).jsonl" }

    static func locationsFileName(deviceID: Int64) -> String { "locations/device-\(deviceID).csv" }

    /// Writes the archive of `userID` to `path` (it appears there only once complete). Every table is
    /// read in batches and written to a file in a temporary folder, which libzip then deflates into the
    /// archive: nothing of the history is held in memory at once.
    /// - Throws: `StoreError.unknownUser`, `StoreError`, `FormatError`, file errors.
    /// With `photoFiles`, each photo's original goes in too, as `photos/DIGEST.EXT` (stored as it is,
    /// not deflated again); one whose file is gone from its path is listed in the manifest's
    /// `photoFilesMissing` by digest.
    @discardableResult
    public static func export(userID: UserID, from store: any StoreTableAccess, to path: String,
                              exportedAt: Date = Date(), photoFiles: Bool = false) async throws -> Summary {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-account-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tables"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("locations"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = userID.rawValue
        var summary = Summary()
        var files: [String] = []
        var userName = ""
        var devices: [Int64] = []
        var originals: [(digest: String, path: String)] = []
        for table in tables {
            if table.perDevice {
                var count = 0
                for device in devices {
                    let name = locationsFileName(deviceID: device)
                    let writer = try ArchiveFileWriter(path: folder.appendingPathComponent(name).path)
                    try writer.write(AccountArchiveCSV.header(table))
                    count += try await eachBatch(table, StoreTableDevice(userID: user, deviceID: device), in: store) { rows in
                        for row in rows { try writer.write(AccountArchiveCSV.line(row, table)) }
                    }
                    try writer.close()
                    files.append(name)
                }
                summary.rows[table.name] = count
                continue
            }
            let name = fileName(of: table)
            let writer = try ArchiveFileWriter(path: folder.appendingPathComponent(name).path)
            let withheld = withheldColumns[table.name] ?? []
            var count = 0
            let write: ([StoreRow]) throws -> Void = { rows in
                for var row in rows where owner(of: row, table) == user {
                    for (index, column) in table.columns.enumerated() where withheld.contains(column.name) { row[index] = .null }
                    if table.name == "users" {
                        guard case .text(let text) = row[1] else { continue }
                        userName = text
                    }
                    if table.name == "devices", case .integer(let id) = row[1] { devices.append(id) }
                    if photoFiles, table.name == "photos", let original = photoOriginal(row, table) { originals.append(original) }
                    try writer.write(AccountArchiveJSON.line(row, table))
                    count += 1
                }
            }
            if table.userLink == .device {
                for device in devices { _ = try await eachBatch(table, StoreTableDevice(userID: user, deviceID: device), in: store, write) }
            } else {
                _ = try await eachBatch(table, nil, in: store, write)
            }
            try writer.close()
            if table.name == "users", count == 0 { throw StoreError.unknownUser(userID) }
            summary.rows[table.name] = count
            files.append(name)
        }
        if let friends = try await writeFriends(userID: userID, store: store, folder: folder) {
            summary.rows["friends"] = friends
            files.append(friendsFileName)
        }
        // The originals still where the photos table says: each once (a digest is one photo per user).
        var photoEntries: [(name: String, path: String)] = []
        var missing: [String] = []
        for original in originals {
            var isFolder: ObjCBool = false
            if isDigest(original.digest), FileManager.default.fileExists(atPath: original.path, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isReadableFile(atPath: original.path) {
                photoEntries.append((photoFileName(digest: original.digest, path: original.path), original.path))
            } else {
                missing.append(original.digest)
            }
        }
        if photoFiles {
            summary.rows[photoFilesKey] = photoEntries.count
            summary.photoFilesMissing = missing
        }
        var manifest = AccountArchiveManifest(userName: userName, exportedAt: exportedAt, summary: summary,
                                              files: files + photoEntries.map(\.name))
        if photoFiles { manifest.photoFilesMissing = missing }
        try manifest.json().write(to: folder.appendingPathComponent("manifest.json"))
        try Data(manifest.readme().utf8).write(to: folder.appendingPathComponent("README.txt"))
        let archive = try ZipArchiveWriter(path: path)
        for name in ["README.txt", "manifest.json"] + files {
            try archive.addFile(named: name, contentsOf: folder.appendingPathComponent(name).path)
        }
        // Photos are compressed already: kept as they are.
        for entry in photoEntries { try archive.addFile(named: entry.name, contentsOf: entry.path, compress: false) }
        try archive.close()
        return summary
    }

    /// `Summary.rows`' key for the photos' files an archive holds.
    public static let photoFilesKey = "photo files"

    /// `photos/DIGEST.EXT`: a photo's original in the archive, named by its content digest, with its file's extension.
    static func photoFileName(digest: String, path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        let safe = !ext.isEmpty && ext.count <= 8 && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return "photos/\(digest)" + (safe ? ".\(ext)" : "")
    }

    /// A photos row's digest and original's path.
    static func photoOriginal(_ row: StoreRow, _ table: StoreTable) -> (digest: String, path: String)? {
        guard let digestIndex = table.columns.firstIndex(where: { $0.name == "digest" }),
              let pathIndex = table.columns.firstIndex(where: { $0.name == "path" }),
              case .text(let digest) = row[digestIndex], case .text(let path) = row[pathIndex] else { return nil }
        return (digest, path)
    }

    /// 64 lowercase hexadecimal digits, the only names `photos/` entries have (nothing else is read from there).
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The user a row belongs to: `users`' own id, else the `user_id` every other table's rows lead with.
    static func owner(of row: StoreRow, _ table: StoreTable) -> Int64? {
        let index = table.userLink == .none ? table.columns.firstIndex { $0.name == "id" } : 0
        guard let index, case .integer(let id) = row[index] else { return nil }
        return id
    }

    /// Reads every row of `table` (of `device`) in key order, a batch at a time.
    /// - Returns: the number of rows read.
    static func eachBatch(_ table: StoreTable, _ device: StoreTableDevice?, in store: any StoreTableAccess,
                          _ body: ([StoreRow]) throws -> Void) async throws -> Int {
        var after: StoreRow?
        var count = 0
        while true {
            let rows = try await store.rows(of: table, device: device, after: after, limit: 2_000)
            try body(rows)
            count += rows.count
            guard rows.count == 2_000, let last = rows.last else { return count }
            after = table.key(of: last)
        }
    }
}

/// A file of the archive being written, buffered.
final class ArchiveFileWriter {
    private let handle: FileHandle
    private var buffer = Data()

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
    }

    func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func close() throws {
        try flush()
        try handle.close()
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
