import Foundation
import TravelogFormats
import TravelogStore

/// What importing one file did, for the per-file summary.
public struct ImportReport: Sendable {
    /// How the file ended.
    public enum Outcome: Sendable {
        /// Stored (possibly nothing new); `nil` when the file held nothing to store.
        case imported(ImportRecord?)
        /// Named as something else than location history and left alone.
        case skipped(reason: String)
        /// Broken or unreadable: nothing of it was stored.
        case failed(reason: String)
    }

    public var path: String
    public var format: FileFormat?
    public var outcome: Outcome
    /// Points with a time, read from the file.
    public var locationsRead = 0
    /// Stays the file describes itself (kept for the journal).
    public var visitsRead = 0
    /// The stays themselves (a Google month holds a few dozen).
    public var visits: [FormatVisit] = []
    /// The earliest and latest time of the locations read: the stretch of the journal to re-process.
    public var firstTimestamp: Date?
    public var lastTimestamp: Date?
    /// Records rejected, with the first few reasons.
    public var rejected = 0
    public var rejections: [RecordRejection] = []
    /// Points without a time (they can't be history; counted among the rejected).
    public var untimedPoints = 0
    public var bytesRead = 0
    /// Records passed over because they are not locations, by what they were.
    public var skipped: [String: Int] = [:]

    /// A report of nothing read yet (filled in as the file is read).
    public init(path: String, format: FileFormat?, outcome: Outcome) {
        self.path = path
        self.format = format
        self.outcome = outcome
    }

    public var inserted: Int {
        if case .imported(let record) = outcome { return record?.inserted ?? 0 }
        return 0
    }

    public var duplicates: Int {
        if case .imported(let record) = outcome { return record?.duplicates ?? 0 }
        return 0
    }

    public var failed: Bool {
        if case .failed = outcome { return true }
        return false
    }
}

/// How far an import has come, for a progress bar.
public struct ImportProgress: Sendable {
    public var bytesRead: Int
    public var totalBytes: Int?
    public var locations: Int
}
