import Foundation

/// An entry into or an exit from a beacon region (Core Location's `didEnterRegion` /
/// `didExitRegion` for a `CLBeaconRegion`).
public struct BeaconRegionEvent: Sendable, Hashable {
    /// Entry or exit.
    public let kind: RegionEvent.Kind
    /// The identifier of the region.
    public let regionIdentifier: String
    /// When it happened: the sighting for an entry; for an exit, the last sighting of any of the
    /// region's beacons plus the exit timeout.
    public let time: Date
    /// The beacon whose sighting made the entry, or the one last heard before the exit.
    public let beacon: BeaconIdentity
}
