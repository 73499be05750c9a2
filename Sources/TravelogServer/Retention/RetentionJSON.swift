import Foundation
import TravelogAccounts
import TravelogFormats
import TravelogStore

/// Retention as `GET`/`PUT /api/v1/account/retention` answer it (and `travelog retention show --json`).
public struct RetentionJSON: Codable, Sendable, Equatable {
    /// The period that applies (`365d`) or `off`.
    public var period: String
    public var days: Int?
    /// `keep` or `delete`: the journal's visits older than the period.
    public var journal: String
    /// `user` (the person's own setting), `server` (`travelog serve --retention`) or `none`.
    public var source: String
    /// The server's default, `off` when it has none.
    public var serverDefault: String
    public var lastRun: RunJSON?

    public struct RunJSON: Codable, Sendable, Equatable {
        public var ranAt: String
        public var cutoff: String
        public var deletedFixes: Int
        public var deletedVisits: Int

        public init(_ run: RetentionRun) {
            ranAt = ISO8601TimeFormatter.string(run.ranAt)
            cutoff = ISO8601TimeFormatter.string(run.cutoff)
            deletedFixes = run.deletedFixes
            deletedVisits = run.deletedVisits
        }
    }

    public init(applied: HistoryRetention.Applied, serverDefault: RetentionSetting?, lastRun: RetentionRun?) {
        period = applied.setting.periodText
        days = applied.setting.days
        journal = applied.setting.journal.rawValue
        source = applied.source.rawValue
        self.serverDefault = serverDefault?.periodText ?? "off"
        self.lastRun = lastRun.map(RunJSON.init)
    }

    /// Reads the settings of the user as the API shows them.
    public static func read(_ retention: HistoryRetention, userID: UserID) async throws(StoreError) -> RetentionJSON {
        RetentionJSON(applied: try await retention.applied(userID: userID), serverDefault: retention.serverDefault,
                      lastRun: try await retention.store.lastRetentionRun(userID: userID))
    }
}

/// What `GET /api/v1/account/retention/preview` answers (and `travelog retention preview --json`).
public struct RetentionPreviewJSON: Codable, Sendable, Equatable {
    public var period: String
    /// Fixes before this instant would go; absent when retention is off.
    public var cutoff: String?
    public var fixes: Int
    public var devices: [DeviceJSON]
    /// Journal visits that ended before the cutoff.
    public var journalEntries: Int
    /// Whether those are deleted (`delete`) or kept (`keep`).
    public var journal: String

    public struct DeviceJSON: Codable, Sendable, Equatable {
        public var device: String
        public var fixes: Int
        public var oldest: String?
        public var newest: String?
    }

    public init(_ preview: HistoryRetention.Preview) {
        period = preview.applied.setting.periodText
        cutoff = preview.cutoff.map(ISO8601TimeFormatter.string)
        fixes = preview.fixes
        devices = preview.devices.map {
            DeviceJSON(device: $0.device.name, fixes: $0.locationCount, oldest: $0.firstTimestamp.map(ISO8601TimeFormatter.string),
                       newest: $0.lastTimestamp.map(ISO8601TimeFormatter.string))
        }
        journalEntries = preview.visits
        journal = preview.applied.setting.journal.rawValue
    }
}
