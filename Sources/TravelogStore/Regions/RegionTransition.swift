import Foundation
import TravelogCore

/// A device entering or leaving one of its user's regions.
public struct RegionTransition: Sendable, Hashable {
    /// Who decided the transition.
    public enum Source: String, Sendable, Hashable {
        /// The server's region monitor, from the stored fixes.
        case detected
        /// The device's own monitor (an OwnTracks `transition` message).
        case reported
    }

    public var deviceID: DeviceID
    public var regionID: RegionID
    public var kind: RegionEvent.Kind
    /// When the device crossed, as well as the fixes tell (the monitor's crossing time; the
    /// device's time for a reported one). Kept at storage precision (1 ms).
    public var occurredAt: Date
    /// Where the fix that decided it was, when known.
    public var coordinate: Coordinate?
    /// That fix's horizontal accuracy, metres, when known.
    public var horizontalAccuracyMeters: Double?
    public var source: Source

    public init(deviceID: DeviceID, regionID: RegionID, kind: RegionEvent.Kind, occurredAt: Date,
                coordinate: Coordinate?, horizontalAccuracyMeters: Double?, source: Source) {
        self.deviceID = deviceID
        self.regionID = regionID
        self.kind = kind
        self.occurredAt = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(occurredAt))
        self.coordinate = coordinate.map {
            Coordinate(validLatitude: StoragePrecision.degrees(e7: StoragePrecision.e7($0.latitude)),
                       longitude: StoragePrecision.degrees(e7: StoragePrecision.e7($0.longitude))) ?? $0
        }
        self.horizontalAccuracyMeters = horizontalAccuracyMeters.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        self.source = source
    }

    /// What makes a transition the same one again: a re-evaluation or a retried message stores it once.
    public var key: String {
        "\(deviceID):\(regionID):\(kind == .entry ? "enter" : "exit"):\(StoragePrecision.milliseconds(occurredAt)):\(source.rawValue)"
    }
}

/// A transition as stored.
public struct StoredRegionTransition: Sendable, Hashable {
    public var id: RegionTransitionID
    public var transition: RegionTransition

    public init(id: RegionTransitionID, transition: RegionTransition) {
        self.id = id
        self.transition = transition
    }
}

/// Where a device's region monitor stood after the last fix it was fed: enough to go on after a
/// restart without reporting a crossing twice.
public struct RegionCheckpoint: Sendable, Hashable {
    /// One region's state.
    public struct Entry: Sendable, Hashable {
        public var state: RegionState
        /// The first fix of a crossing that waits for its dwell time.
        public var pendingCrossingTime: Date?

        public init(state: RegionState, pendingCrossingTime: Date?) {
            self.state = state
            self.pendingCrossingTime = pendingCrossingTime.map { StoragePrecision.date(milliseconds: StoragePrecision.milliseconds($0)) }
        }
    }

    public var deviceID: DeviceID
    /// The time of the latest fix fed (storage precision).
    public var evaluatedThrough: Date
    /// Per region of the device's user; a region absent here starts unknown.
    public var regions: [RegionID: Entry]

    public init(deviceID: DeviceID, evaluatedThrough: Date, regions: [RegionID: Entry]) {
        self.deviceID = deviceID
        self.evaluatedThrough = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(evaluatedThrough))
        self.regions = regions
    }
}
