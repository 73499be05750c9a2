import Foundation
import TravelogCore

/// What a device told with its latest batch of locations.
public struct DeviceReport: Hashable, Sendable {
    /// When the server received it.
    public var receivedAt: Date
    /// The newest fix of the batch (its time and position), when it had one.
    public var latestFix: Location?
    /// The battery's charge, percent 0–100, when the app said.
    public var batteryPercent: Double?
    /// Whether the phone was charging (or full and plugged in), when the app said.
    public var isCharging: Bool?
    /// The app's `User-Agent` (its name and version, as the app gives them), when it sent one.
    public var userAgent: String?
    /// What an OwnTracks phone said of itself with its newest fix (tracker ID, connection, Wi-Fi,
    /// monitoring mode, regions), when it is one.
    public var phoneStatus: PhoneStatus?

    public init(receivedAt: Date, latestFix: Location? = nil, batteryPercent: Double? = nil, isCharging: Bool? = nil,
                userAgent: String? = nil, phoneStatus: PhoneStatus? = nil) {
        self.receivedAt = receivedAt
        self.latestFix = latestFix
        self.batteryPercent = batteryPercent
        self.isCharging = isCharging
        self.userAgent = userAgent
        self.phoneStatus = phoneStatus
    }

    /// The longest user agent kept, characters (the rest is cut).
    public static let maximumUserAgentLength = 200

    /// The report as every store keeps it: times in milliseconds, of the fix only its time,
    /// position and horizontal accuracy (at `StoragePrecision`), the user agent cut to its longest.
    public var storable: DeviceReport {
        var kept = self
        kept.receivedAt = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(receivedAt))
        kept.latestFix = latestFix.map { fix in
            let rounded = StoragePrecision.rounded(fix)
            return Location(coordinate: rounded.coordinate, horizontalAccuracyMeters: rounded.horizontalAccuracyMeters,
                            timestamp: rounded.timestamp)
        }
        kept.userAgent = userAgent.map { String($0.prefix(Self.maximumUserAgentLength)) }
        return kept
    }
}

/// What the store knows of a device beyond its `Device` record.
public struct DeviceState: Hashable, Sendable {
    /// When it was removed with its history kept (`nil`: in use).
    public var retiredAt: Date?
    /// The latest report (`nil`: never heard from since status was kept).
    public var lastReport: DeviceReport?
    /// After how long without a report it counts as silent, seconds (`nil`: never).
    public var silentAfterSeconds: Int?
    /// Whether its current silence was notified.
    public var silenceNotified: Bool

    public init(retiredAt: Date? = nil, lastReport: DeviceReport? = nil, silentAfterSeconds: Int? = nil, silenceNotified: Bool = false) {
        self.retiredAt = retiredAt
        self.lastReport = lastReport
        self.silentAfterSeconds = silentAfterSeconds
        self.silenceNotified = silenceNotified
    }

    /// `previous` brought up to date by `report`: what the report lacks (battery, charging, user
    /// agent, a fix newer than the one kept, a phone's status) is kept; an older report changes
    /// nothing, and the status said with an older fix (a late retry) does not replace the newer one.
    public static func merged(_ report: DeviceReport, into previous: DeviceReport?) -> DeviceReport {
        guard let previous else { return report }
        guard report.receivedAt >= previous.receivedAt else { return previous }
        var merged = report
        var olderFix = false
        if let kept = previous.latestFix, report.latestFix.map({ $0.timestamp < kept.timestamp }) ?? true {
            merged.latestFix = kept  // a late retry of old fixes does not move the device back
            olderFix = true
        }
        merged.phoneStatus = (olderFix ? nil : report.phoneStatus) ?? previous.phoneStatus
        merged.batteryPercent = report.batteryPercent ?? previous.batteryPercent
        merged.isCharging = report.isCharging ?? previous.isCharging
        merged.userAgent = report.userAgent ?? previous.userAgent
        return merged
    }
}

extension PhoneStatus {
    /// The status as the stores keep it: a JSON object in one column.
    public var storedJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A stored status; nil for anything unreadable (a damaged column never fails a read).
    public init?(storedJSON: String?) {
        guard let storedJSON, let decoded = try? JSONDecoder().decode(PhoneStatus.self, from: Data(storedJSON.utf8)) else { return nil }
        self = decoded
    }
}
