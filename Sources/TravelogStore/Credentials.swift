import Foundation

/// The app a device runs, when its owner said so: it decides how the ingest endpoints read what
/// the device sends (Traccar Client reports speed in knots, OsmAnd in metres per second).
public enum DeviceApp: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    case owntracks
    /// OwnTracks in MQTT mode: it publishes to a broker `travelog serve --mqtt` subscribes to.
    case owntracksMQTT = "owntracks-mqtt"
    case overland
    case osmand
    case traccar
    case gpslogger
    /// Anything else that posts to the generic API.
    case other

    public var description: String { rawValue }
}

/// A login session of the web page. The store keeps only the SHA-256 digest of the session's
/// secret, so a copy of the database does not let anyone in.
public struct SessionRecord: Hashable, Sendable {
    public var userID: UserID
    public var expiresAt: Date
    /// When the person signed in (a password, or the single sign-on provider); `nil` for a session
    /// started before Travelog kept it. A recent sign-in confirms it is them, as retyping a password does.
    public var startedAt: Date?

    public init(userID: UserID, expiresAt: Date, startedAt: Date? = nil) {
        self.userID = userID
        self.expiresAt = expiresAt
        self.startedAt = startedAt
    }
}

/// The lowercase hexadecimal SHA-256 digest of a secret (a device token, a session id). Secrets
/// themselves are never stored.
public struct SecretDigest: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
