import Foundation
import TravelogCore

/// A region's identifier in a store. A region belongs to exactly one user.
public struct RegionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// A stored transition's identifier.
public struct RegionTransitionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// The beacons that also stand for a region (an OwnTracks waypoint with an iBeacon UUID; Core
/// Location's `CLBeaconIdentityConstraint`).
public struct RegionBeacon: Sendable, Hashable {
    /// The proximity UUID every beacon of the region has.
    public let proximityUUID: UUID
    /// The major the beacons must have, or `nil` for any.
    public let major: UInt16?
    /// The minor the beacon must have, or `nil` for any; only with a major.
    public let minor: UInt16?

    /// - Throws: ``RegionDefinitionError/minorWithoutMajor``.
    public init(proximityUUID: UUID, major: UInt16? = nil, minor: UInt16? = nil) throws(RegionDefinitionError) {
        if minor != nil, major == nil { throw .minorWithoutMajor }
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
    }
}

/// What a person says a region is: its name, its area, which crossings to report, and optionally
/// the beacons that mark it. Every definition that exists can be monitored.
public struct RegionDefinition: Sendable, Hashable {
    /// The longest name a region may have, characters.
    public static let maximumNameLength = 100
    /// The radii a region may have, metres: those the region monitor watches (a polygon's is that
    /// of the circle with its area).
    public static let radiusLimitsMeters = RegionMonitor.Configuration().radiusLimitsMeters

    /// The name the user knows it by ("Home"); unique among the user's regions.
    public let name: String
    /// A circle or a polygon.
    public let shape: MonitoredRegion.Shape
    public let notifyOnEntry: Bool
    public let notifyOnExit: Bool
    public let beacon: RegionBeacon?

    /// Creates a definition.
    /// - Throws: ``RegionDefinitionError/invalidName(_:)`` for an empty, over-long or unprintable
    ///   name, ``RegionDefinitionError/radiusOutOfRange(meters:allowedMeters:)`` for an area too small
    ///   or too large to monitor.
    /// - Complexity: O(n) geodesic problems for a polygon of n positions.
    public init(name: String, shape: MonitoredRegion.Shape, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
                beacon: RegionBeacon? = nil) throws(RegionDefinitionError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= Self.maximumNameLength,
              DisplayName.firstRefused(in: trimmed) == nil else {
            throw .invalidName(name)
        }
        self.name = trimmed
        self.shape = shape
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.beacon = beacon
        let radius = monitoredRegion(identifier: "check").equivalentRadiusMeters
        guard Self.radiusLimitsMeters.contains(radius) else {
            throw .radiusOutOfRange(meters: radius, allowedMeters: Self.radiusLimitsMeters)
        }
    }

    /// The region as the monitor registers it, under `identifier`.
    public func monitoredRegion(identifier: String) -> MonitoredRegion {
        // The identifier is never empty here, so the initializer cannot throw.
        (try? MonitoredRegion(identifier: identifier.isEmpty ? "region" : identifier, shape: shape,
                              notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit))!
    }
}

/// Why a region cannot be defined.
public enum RegionDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidName(String)
    /// The region's radius (a polygon's equivalent radius) is outside what can be monitored.
    case radiusOutOfRange(meters: Double, allowedMeters: ClosedRange<Double>)
    /// A beacon's minor was given without its major.
    case minorWithoutMajor

    public var description: String {
        switch self {
        case .invalidName(let name):
            "'\(name)' is not a valid region name: it must be 1 to \(RegionDefinition.maximumNameLength) printable characters"
        case let .radiusOutOfRange(meters, allowed):
            "a radius of \(meters) m (a polygon's: that of the circle with its area) is outside \(allowed.lowerBound)...\(allowed.upperBound) m"
        case .minorWithoutMajor:
            "a beacon's minor needs its major"
        }
    }
}

/// A user's region as stored.
public struct StoredRegion: Sendable, Hashable {
    public var id: RegionID
    public var userID: UserID
    public var definition: RegionDefinition
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: RegionID, userID: UserID, definition: RegionDefinition, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.userID = userID
        self.definition = definition
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
