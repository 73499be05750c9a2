import Foundation
import TravelogFormats
import TravelogStore

/// `manifest.json` of an account archive: what it is, for whom, when, and what each file holds.
struct AccountArchiveManifest: Codable, Equatable {
    struct File: Codable, Equatable {
        var name: String
        var format: String
        var rows: Int?
        var description: String
    }

    var format: String
    var version: Int
    var user: String
    var exportedAt: String
    var files: [File]
    /// Tables not in the archive, and why.
    var leftOut: [String: String]
    /// Columns written empty (secrets), by table.
    var withheld: [String: [String]]
    /// With the photos' files: the digests of photos whose original was no longer at its path (nil: files not asked for).
    var photoFilesMissing: [String]?

    init(userName: String, exportedAt: Date, summary: AccountArchive.Summary, files names: [String]) {
        format = AccountArchive.formatName
        version = AccountArchive.formatVersion
        user = userName
        self.exportedAt = ISO8601TimeFormatter.string(exportedAt)
        files = names.map { name in
            if name == AccountArchive.friendsFileName {
                return File(name: name, format: "jsonl", rows: summary.rows["friends"],
                            description: "friendships by the other's name: state (friend, invited, invitedYou) and both history grants; "
                            + "an import invites again those who have an account of that name there")
            }
            if name.hasPrefix("photos/") {
                return File(name: name, format: (name as NSString).pathExtension.lowercased(), rows: nil,
                            description: "a photo's original file, as it was added, named by its content digest (the photos table's digest)")
            }
            if name.hasPrefix("locations/") {
                return File(name: name, format: "csv", rows: nil, description: "one device's fixes, oldest first: CSV (RFC 4180) with a header; "
                            + "latitude_e7 and longitude_e7 are degrees × 10^7, timestamp_ms milliseconds since 1970 UTC, empty is none")
            }
            let table = String(name.dropFirst("tables/".count).dropLast(".jsonl".count))
            return File(name: name, format: "jsonl", rows: summary.rows[table],
                        description: "the rows of \(table): JSON Lines, one object per row keyed by column")
        }
        leftOut = AccountArchive.leftOutTables
        withheld = AccountArchive.withheldColumns.mapValues { $0.sorted() }
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    func readme() -> String {
        """
        Travelog account archive of \(user), written \(exportedAt) (format \(format), version \(version)).

        manifest.json    what each file holds, its format and row count, and what was left out
        locations/       one CSV file per device (device-ID.csv): every stored field of every fix
        tables/          one JSON Lines file per table: devices, imports, places, visits (the journal,
                         with your renames, merges and deletions), regions and their transitions,
                         privacy zones, notification channels, rejected items, share links, photos' details

        Left out: passwords and tokens (set a password and make new device tokens on the new
        server), notification channels' secrets, share links' tokens (an imported share cannot be
        opened with its old link), sessions, two-factor login, the photos' files (unless written with
        --photos: then photos/ holds each original, named by its digest). Friendships are in
        friends.jsonl by name: an import invites again those who have an account of that name there.
        `travelog import THIS.zip` on a Travelog server brings the account back as a new user.
        The columns are described in docs/EXPORT.md of Travelog.

        """
    }
}

/// Rows as JSON Lines objects, by column name.
enum AccountArchiveJSON {
    static func line(_ row: StoreRow, _ table: StoreTable) -> String {
        var line = "{"
        for (index, column) in table.columns.enumerated() {
            if index > 0 { line += "," }
            line += "\"\(column.name)\":" + value(row[index])
        }
        return line + "}"
    }

    static func value(_ value: StoreValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        case .real(let real): real.isFinite ? "\(real)" : "null"
        case .text(let text): quoted(text)
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A row from a line. - Throws: `AccountArchiveError.badRow`.
    static func row(_ line: Data, _ table: StoreTable, file: String, number: Int) throws(AccountArchiveError) -> StoreRow {
        guard let object = (try? JSONSerialization.jsonObject(with: line, options: [])) as? [String: Any] else {
            throw .badRow(file: file, line: number, reason: "not a JSON object")
        }
        return try table.columns.map { column throws(AccountArchiveError) -> StoreValue in
            guard let found = object[column.name], !(found is NSNull) else { return .null }
            switch column.kind {
            case .integer, .boolean:
                if let integer = found as? Int { return .integer(Int64(integer)) }
                if let number = found as? NSNumber, let integer = Int64(exactly: number.doubleValue) { return .integer(integer) }
            case .real:
                if let number = found as? NSNumber { return .real(number.doubleValue) }
            case .text:
                if let text = found as? String { return .text(text) }
            }
            throw .badRow(file: file, line: number, reason: "\(column.name) is not \(column.kind)")
        }
    }
}

/// Locations as CSV with a header: the table's columns but `user_id`, empty for none.
enum AccountArchiveCSV {
    static func columns(_ table: StoreTable) -> ArraySlice<StoreTable.Column> { table.columns.dropFirst() }

    static func header(_ table: StoreTable) -> String { columns(table).map(\.name).joined(separator: ",") }

    static func line(_ row: StoreRow, _ table: StoreTable) -> String {
        row.dropFirst().map { value in
            switch value {
            case .null: ""
            case .integer(let integer): String(integer)
            case .real(let real): real.isFinite ? "\(real)" : ""
            case .text(let text):
                text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
            }
        }.joined(separator: ",")
    }

    /// A row (with `userID` first) from a line of the file. - Throws: `AccountArchiveError.badRow`.
    static func row(_ line: String, _ table: StoreTable, userID: Int64, file: String, number: Int) throws(AccountArchiveError) -> StoreRow {
        let fields = split(line)
        let columns = Array(columns(table))
        guard fields.count == columns.count else {
            throw .badRow(file: file, line: number, reason: "\(fields.count) fields where the header has \(columns.count)")
        }
        var row: StoreRow = [.integer(userID)]
        for (field, column) in zip(fields, columns) {
            if field.isEmpty { row.append(.null); continue }
            switch column.kind {
            case .integer, .boolean:
                guard let integer = Int64(field) else { throw .badRow(file: file, line: number, reason: "\(column.name) '\(field)' is not an integer") }
                row.append(.integer(integer))
            case .real:
                guard let real = Double(field), real.isFinite else { throw .badRow(file: file, line: number, reason: "\(column.name) '\(field)' is not a number") }
                row.append(.real(real))
            case .text:
                row.append(.text(field))
            }
        }
        return row
    }

    /// The fields of one line (RFC 4180 quotes; a field holds no line break).
    static func split(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    // A doubled quote is one quote; a single one ends the quoted part.
                    var lookahead = iterator
                    if lookahead.next() == "\"" { field.append("\""); iterator = lookahead } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}

/// Why an account archive cannot be imported.
public enum AccountArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `manifest.json` of an account archive.
    case notAnAccountArchive(path: String)
    /// A version this Travelog does not read.
    case unsupportedVersion(Int)
    /// The server has a user of the archive's name already.
    case userExists(name: String)
    /// A line of a file is not a row of its table.
    case badRow(file: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .notAnAccountArchive(let path): "\(path) is not a Travelog account archive (it has no manifest.json of one)"
        case .unsupportedVersion(let version):
            "the archive is of version \(version); this Travelog reads version \(AccountArchive.formatVersion): use a newer Travelog"
        case .userExists(let name):
            "this server has a user named '\(name)' already: an account archive makes a new user (delete the other, "
                + "or import on another server); nothing was imported"
        case .badRow(let file, let line, let reason): "\(file), line \(line): \(reason); nothing was imported"
        }
    }
}
