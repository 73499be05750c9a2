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

    /// Stores the archive's account in an empty store, with the ids it had: the same journal,
    /// statistics, regions and zones as where it came from. The user has no password (`travelog user
    /// passwd`), their devices no tokens, their shares new token digests that no link opens, and is
    /// the server's administrator (its only user). A file that is not what the manifest says stops
    /// the import, and what was stored of it is deleted.
    /// - Throws: `AccountArchiveError` (`.serverNotEmpty` when the store has a user), `FormatError`, `StoreError`.
    @discardableResult
    public static func importArchive(path: String, into store: any TravelogStore & StoreTableAccess) async throws -> Summary {
        let archive = try ZipArchive(path: path)
        let manifest = try manifest(of: archive, path: path)
        guard manifest.version == formatVersion else { throw AccountArchiveError.unsupportedVersion(manifest.version) }
        let users = try await store.users()
        guard users.isEmpty else { throw AccountArchiveError.serverNotEmpty(users: users.count) }
        try await store.prepareMove()
        var summary = Summary()
        var userID: Int64?
        do {
            for table in tables {
                var count = 0
                if table.perDevice {
                    for entry in archive.entries where entry.name.hasPrefix("locations/") && entry.name.hasSuffix(".csv") {
                        count += try await appendCSV(entry, of: archive, table, userID: userID ?? 0, into: store)
                    }
                } else if let entry = archive.entry(named: fileName(of: table)) {
                    count = try await appendJSONLines(entry, of: archive, table, into: store) { row in
                        if table.name == "users" {
                            // The server's only user; an administrator once the rest is in (so that a failed
                            // import may delete it).
                            if case .integer(let id) = row[0] { userID = id }
                            set(&row, table, "administrator", .integer(0))
                            set(&row, table, "disabled", .integer(0))
                        }
                        if table.name == "shares" {
                            // A new digest no token has: the old link does not open the imported share.
                            set(&row, table, "token_sha256", .text(randomDigest()))
                        }
                    }
                }
                summary.rows[table.name] = count
            }
            try await store.finishMove()
            if let userID { _ = try await store.setAdministrator(true, userID: UserID(rawValue: userID)) }
        } catch {
            if let userID { try? await store.deleteUser(id: UserID(rawValue: userID)) }
            throw error
        }
        return summary
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
                                _ adjust: (inout StoreRow) -> Void) async throws -> Int {
        var reader = LineReader(source: try archive.contents(of: entry))
        var batch: [StoreRow] = []
        var count = 0
        while let line = try reader.next() {
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
            var row = try AccountArchiveJSON.row(Data(line.bytes), table, file: entry.name, number: line.number)
            adjust(&row)
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

    static func appendCSV(_ entry: ZipEntry, of archive: ZipArchive, _ table: StoreTable, userID: Int64,
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
            batch.append(try AccountArchiveCSV.row(text, table, userID: userID, file: entry.name, number: line.number))
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
