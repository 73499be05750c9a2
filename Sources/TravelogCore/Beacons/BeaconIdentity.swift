import Foundation

/// What identifies an iBeacon: its proximity UUID, major and minor (Core Location's `CLBeacon`
/// `uuid`, `major`, `minor`).
public struct BeaconIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The proximity UUID that an organisation gives all its beacons.
    public let proximityUUID: UUID
    /// A group of beacons, such as a store.
    public let major: UInt16
    /// A beacon within the group.
    public let minor: UInt16

    /// Creates an identity.
    public init(proximityUUID: UUID, major: UInt16, minor: UInt16) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
    }

    /// Orders by UUID (its text), major, minor: a stable order for beacons at equal distances.
    public static func < (lhs: BeaconIdentity, rhs: BeaconIdentity) -> Bool {
        (lhs.proximityUUID.uuidString, lhs.major, lhs.minor) < (rhs.proximityUUID.uuidString, rhs.major, rhs.minor)
    }

    public var description: String { "\(proximityUUID.uuidString) \(major) \(minor)" }
}
