import Foundation

/// An item a phone app sent that could not be stored (a point without a time, a latitude of 200,
/// a body that is not JSON): kept for its user to see, with the reason and where it was, so that
/// the app's queue moves on while nothing is silently thrown away.
public struct RejectedItem: Hashable, Sendable {
    public var id: RejectedItemID
    public var userID: UserID
    /// The device the item was sent for, when it was known.
    public var deviceID: DeviceID?
    /// The route it came through (`owntracks`, `overland`, `osmand`, `gpslogger`).
    public var route: String
    /// Why it was refused, with its position (`item 3 (line 1, column 240): missing tst`).
    public var reason: String
    /// The item as it was sent (UTF-8 text, at most `RejectedItem.maximumRawBytes` of it).
    public var raw: String
    /// The item's size in bytes (it may be longer than `raw`).
    public var rawByteCount: Int
    public var receivedAt: Date

    /// The most bytes of an item that are kept.
    public static let maximumRawBytes = 16 << 10

    public init(id: RejectedItemID, userID: UserID, deviceID: DeviceID?, route: String, reason: String, raw: String,
                rawByteCount: Int, receivedAt: Date) {
        self.id = id
        self.userID = userID
        self.deviceID = deviceID
        self.route = route
        self.reason = reason
        self.raw = raw
        self.rawByteCount = rawByteCount
        self.receivedAt = receivedAt
    }
}

/// A rejected item to keep. `fingerprint` identifies it across retries: an app that sends the same
/// batch again does not fill the list twice.
public struct NewRejectedItem: Hashable, Sendable {
    public var userID: UserID
    public var deviceID: DeviceID?
    public var route: String
    public var reason: String
    public var raw: String
    public var rawByteCount: Int
    public var receivedAt: Date
    /// A digest of route, device and the raw bytes (hex).
    public var fingerprint: String

    public init(userID: UserID, deviceID: DeviceID?, route: String, reason: String, raw: String, rawByteCount: Int,
                receivedAt: Date, fingerprint: String) {
        self.userID = userID
        self.deviceID = deviceID
        self.route = route
        self.reason = reason
        self.raw = raw
        self.rawByteCount = rawByteCount
        self.receivedAt = receivedAt
        self.fingerprint = fingerprint
    }
}
