import Foundation

/// A region defined by beacons: every beacon with a proximity UUID, optionally only those with a
/// major, optionally only the one with a major and minor (Core Location's `CLBeaconRegion` and
/// `CLBeaconIdentityConstraint`).
public struct BeaconRegion: Sendable, Hashable {
    /// The region's name; registering another region with the same identifier replaces it.
    public let identifier: String
    /// The proximity UUID every beacon of the region has.
    public let proximityUUID: UUID
    /// The major the beacons must have, or `nil` for any.
    public let major: UInt16?
    /// The minor the beacon must have, or `nil` for any; only with a major.
    public let minor: UInt16?
    /// Whether entering the region is reported.
    public var notifyOnEntry: Bool
    /// Whether leaving the region is reported.
    public var notifyOnExit: Bool

    /// Creates a beacon region.
    /// - Throws: ``BeaconRegionError/emptyIdentifier``; ``BeaconRegionError/minorWithoutMajor(minor:)``.
    public init(identifier: String, proximityUUID: UUID, major: UInt16? = nil, minor: UInt16? = nil,
                notifyOnEntry: Bool = true, notifyOnExit: Bool = true) throws(BeaconRegionError) {
        guard !identifier.isEmpty else { throw .emptyIdentifier }
        if let minor, major == nil { throw .minorWithoutMajor(minor: minor) }
        self.identifier = identifier
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    /// Whether a beacon belongs to the region.
    public func contains(_ beacon: BeaconIdentity) -> Bool {
        beacon.proximityUUID == proximityUUID && (major.map { $0 == beacon.major } ?? true)
            && (minor.map { $0 == beacon.minor } ?? true)
    }
}

/// Why a beacon region could not be made or monitored.
public enum BeaconRegionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A region needs a non-empty identifier.
    case emptyIdentifier
    /// A minor narrows a major: it cannot be given alone (as in Core Location).
    case minorWithoutMajor(minor: UInt16)
    /// The monitor already watches as many beacon regions as it may (Core Location counts them
    /// with the geographic regions, 20 per app). Replacing a region with the same identifier is
    /// always possible.
    case regionLimitReached(identifier: String, limit: Int)

    public var description: String {
        switch self {
        case .emptyIdentifier: "a beacon region needs a non-empty identifier"
        case .minorWithoutMajor(let minor): "minor \(minor) is given without a major"
        case let .regionLimitReached(identifier, limit):
            "beacon region \"\(identifier)\": already monitoring \(limit) regions, the limit; remove one first"
        }
    }
}
