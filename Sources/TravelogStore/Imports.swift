import Foundation

/// What is known of a file before it is read: enough to recognise it again.
public struct ImportProvenance: Hashable, Sendable {
    /// The file's name as the user gave it (no directories needed).
    public var fileName: String
    /// Lower-case hex SHA-256 of the file's bytes, when computed.
    public var contentSHA256: String?
    /// The format it was read as (`gpx`, `google-records`, …).
    public var format: String

    public init(fileName: String, contentSHA256: String?, format: String) {
        self.fileName = fileName
        self.contentSHA256 = contentSHA256
        self.format = format
    }
}

/// What a batch insert did: each location is either newly stored or a duplicate of one stored before.
public struct InsertSummary: Hashable, Sendable {
    public var inserted: Int
    public var duplicates: Int

    public init(inserted: Int = 0, duplicates: Int = 0) {
        self.inserted = inserted
        self.duplicates = duplicates
    }

    public static func + (lhs: Self, rhs: Self) -> Self {
        InsertSummary(inserted: lhs.inserted + rhs.inserted, duplicates: lhs.duplicates + rhs.duplicates)
    }
}

/// A finished import as the store records it.
public struct ImportRecord: Hashable, Sendable {
    public var id: ImportID
    public var deviceID: DeviceID
    public var provenance: ImportProvenance
    public var importedAt: Date
    /// Locations stored by this import.
    public var inserted: Int
    /// Locations already stored before (by this or another import or endpoint).
    public var duplicates: Int
    /// Records the reader rejected (reported, not stored).
    public var rejected: Int

    public init(id: ImportID, deviceID: DeviceID, provenance: ImportProvenance, importedAt: Date,
                inserted: Int, duplicates: Int, rejected: Int) {
        self.id = id
        self.deviceID = deviceID
        self.provenance = provenance
        self.importedAt = importedAt
        self.inserted = inserted
        self.duplicates = duplicates
        self.rejected = rejected
    }
}

/// A finished import as `LocationStore.deleteImport` removed it.
public struct DeletedImport: Hashable, Sendable {
    public var record: ImportRecord
    /// The first and last time of the locations removed (`nil`: it had stored none, only duplicates).
    public var span: ClosedRange<Date>?

    public init(record: ImportRecord, span: ClosedRange<Date>?) {
        self.record = record
        self.span = span
    }
}

/// Per-device figures for `travelog info`.
public struct DeviceSummary: Hashable, Sendable {
    public var device: Device
    public var locationCount: Int
    public var firstTimestamp: Date?
    public var lastTimestamp: Date?

    public init(device: Device, locationCount: Int, firstTimestamp: Date?, lastTimestamp: Date?) {
        self.device = device
        self.locationCount = locationCount
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
    }
}

/// What an import's work tells the store when it is done.
public struct ImportTally: Hashable, Sendable {
    /// Records the reader rejected.
    public var rejected: Int
    /// The file's SHA-256, when it was computed while reading.
    public var contentSHA256: String?

    public init(rejected: Int, contentSHA256: String? = nil) {
        self.rejected = rejected
        self.contentSHA256 = contentSHA256
    }
}
