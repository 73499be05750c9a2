import Foundation

/// Why a retention period could not be read.
public enum RetentionPeriodError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a whole number followed by `d`, `w` or `y`.
    case unreadable(String)
    /// `m` is minutes to some and months to others: the period is written in days, weeks or years.
    case ambiguousUnit(String)
    /// Shorter than a day or longer than ``RetentionSetting/maximumDays``.
    case outOfRange(String)

    public var description: String {
        switch self {
        case .unreadable(let text): "'\(text)' is not a retention period: write a whole number of days, weeks or years (30d, 26w, 2y) or 'off'"
        case .ambiguousUnit(let text): "'\(text)': 'm' could be minutes or months; write days (540d), weeks (78w) or years (2y)"
        case .outOfRange(let text): "'\(text)': a retention period is 1 to \(RetentionSetting.maximumDays) days"
        }
    }
}

/// How long a user keeps their history: fixes older than ``days`` are deleted (in the background
/// once a day, or at once with `travelog retention run`), and the journal's visits that ended
/// before then are kept or deleted as ``journal`` says.
public struct RetentionSetting: Sendable, Hashable {
    /// What happens to the journal's entries older than the limit.
    public enum Journal: String, Sendable, Hashable, CaseIterable, Codable {
        /// Visits (and the trips between them) stay, without the fixes under them.
        case keep
        /// Visits that ended before the limit are deleted with the fixes.
        case delete
    }

    /// The whole days kept before now, or `nil`: off (everything kept, whatever the server's default).
    public let days: Int?
    public let journal: Journal

    /// The longest period one may set: a hundred years of 365 days.
    public static let maximumDays = 36_500

    /// - Throws: ``RetentionPeriodError/outOfRange(_:)`` for fewer than 1 or more than ``maximumDays`` days.
    public init(days: Int?, journal: Journal = .keep) throws(RetentionPeriodError) {
        if let days, !(1...Self.maximumDays).contains(days) { throw .outOfRange("\(days)d") }
        self.init(checkedDays: days, journal: journal)
    }

    private init(checkedDays: Int?, journal: Journal) {
        days = checkedDays
        self.journal = journal
    }

    /// Keeping everything.
    public static let off = RetentionSetting(checkedDays: nil, journal: .keep)

    /// Reads `off`, or a whole number of days (`365d`), weeks (`52w`) or years of 365 days (`2y`),
    /// without leading zeros, spaces around it ignored (what openapi.yaml's pattern says).
    /// - Throws: ``RetentionPeriodError``.
    public static func days(from text: String) throws(RetentionPeriodError) -> Int? {
        let trimmed = trimmed(text)
        if trimmed == "off" { return nil }
        guard let unit = trimmed.last else { throw .unreadable(text) }
        let number = trimmed.dropLast()
        guard !number.isEmpty, number == "0" || number.first != "0", number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw unit == "m" ? .ambiguousUnit(text) : .unreadable(text)
        }
        let daysPerUnit: Int
        switch unit {
        case "d": daysPerUnit = 1
        case "w": daysPerUnit = 7
        case "y": daysPerUnit = 365
        case "m": throw .ambiguousUnit(text)
        default: throw .unreadable(text)
        }
        guard number.count <= 6, let count = Int(number) else { throw .outOfRange(text) }
        let days = count * daysPerUnit
        guard (1...maximumDays).contains(days) else { throw .outOfRange(text) }
        return days
    }

    /// Whether the text asks for the server's default (`default`) rather than a period of one's own.
    public static func isServerDefault(_ text: String) -> Bool { trimmed(text) == "default" }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: " ")).lowercased()
    }

    /// `365d`, `off`: as ``days(from:)`` reads it back.
    public var periodText: String { days.map { "\($0)d" } ?? "off" }

    /// The instant before which fixes go, at `now`; `nil` when off.
    public func cutoff(now: Date) -> Date? {
        days.map { now.addingTimeInterval(-Double($0) * 86_400) }
    }
}

/// What one retention run deleted.
public struct RetentionRun: Sendable, Hashable {
    /// When it finished.
    public var ranAt: Date
    /// Fixes before this instant were deleted.
    public var cutoff: Date
    public var deletedFixes: Int
    /// Journal visits deleted (0 when the journal is kept).
    public var deletedVisits: Int

    public init(ranAt: Date, cutoff: Date, deletedFixes: Int, deletedVisits: Int) {
        self.ranAt = ranAt
        self.cutoff = cutoff
        self.deletedFixes = deletedFixes
        self.deletedVisits = deletedVisits
    }
}

/// Retention's part of a store: each user's own setting, the last run, and the reads and deletes a
/// run needs beyond the one path fixes are deleted by (`ZoneStore.deleteLocations`). Each backend
/// passes `RetentionStoreConformanceTests`.
public protocol RetentionStore: Sendable {
    /// The user's own setting, or `nil` when they have none (the server's default applies).
    func retentionSetting(userID: UserID) async throws(StoreError) -> RetentionSetting?
    /// Keeps the user's own setting; `nil` removes it (back to the server's default).
    /// - Throws: `StoreError.unknownUser`.
    func setRetentionSetting(_ setting: RetentionSetting?, userID: UserID, at date: Date) async throws(StoreError)
    /// Remembers what the last run did (replacing the run before).
    func recordRetentionRun(_ run: RetentionRun, userID: UserID) async throws(StoreError)
    func lastRetentionRun(userID: UserID) async throws(StoreError) -> RetentionRun?
    /// Per device of the user that has any: how many fixes lie before `date`, the first and last of them.
    func locationSummaries(userID: UserID, before date: Date) async throws(StoreError) -> [DeviceSummary]
    /// How many of the user's journal visits ended before `date` (a visit going on never ended;
    /// a merged visit ends where its last part does).
    func visitCount(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int
    /// Deletes those visits, hidden and edited ones too, and the road matches of trips that ended
    /// before `date` (`TripMatchStore`). - Returns: how many visits.
    func deleteVisits(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int
}
