import Foundation

/// Timestamped backups in a folder (`travelog-20261129T001500Z.sqlite`), the newest `keep` kept.
/// Only files named this way are ever removed.
public enum SQLiteBackupRotation {
    static let prefix = "travelog-"
    static let suffix = ".sqlite"

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }

    /// The file name of a backup taken at `date`.
    public static func fileName(at date: Date) -> String {
        prefix + formatter().string(from: date) + suffix
    }

    /// The time a backup's name gives, `nil` for any other name.
    public static func date(ofFileName name: String) -> Date? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        return formatter().date(from: String(name.dropFirst(prefix.count).dropLast(suffix.count)))
    }

    /// The backups in `folder`, oldest first.
    public static func backups(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { date(ofFileName: $0) != nil }.sorted().map { folder + "/" + $0 }
    }

    /// When the newest backup in `folder` was taken.
    public static func newest(in folder: String) -> Date? {
        backups(in: folder).last.flatMap { date(ofFileName: URL(fileURLWithPath: $0).lastPathComponent) }
    }

    /// Removes all but the newest `keep` backups in `folder`, and the temporary files of backups
    /// that were killed (untouched for an hour: a backup under way writes to its file at every step).
    /// - Returns: the backups removed.
    @discardableResult
    public static func prune(in folder: String, keep: Int, now: Date = Date()) -> [String] {
        let all = backups(in: folder)
        let removed = Array(all.dropLast(max(keep, 1)))
        for path in removed { try? FileManager.default.removeItem(atPath: path) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix("." + prefix) && name.contains(suffix + ".partial-") {
            let path = folder + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
            if let modified, now.timeIntervalSince(modified) > 3600 { SQLiteFiles.remove(path) }
        }
        return removed
    }
}
