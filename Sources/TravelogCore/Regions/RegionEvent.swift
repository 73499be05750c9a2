import Foundation

/// A boundary crossing of a monitored region that has been confirmed (Core Location's
/// `didEnterRegion` / `didExitRegion`).
public struct RegionEvent: Sendable, Hashable {
    /// Which way the device crossed.
    public enum Kind: Sendable, Hashable {
        /// The device entered the region.
        case entry
        /// The device left the region.
        case exit
    }

    /// Entry or exit.
    public let kind: Kind
    /// The identifier of the region that was crossed.
    public let regionIdentifier: String
    /// The time of the first fix that lay beyond the boundary by the cushion: when the device
    /// crossed, as well as the fixes can tell.
    public let crossingTime: Date
    /// The fix that confirmed the crossing: the first one still beyond the boundary by the cushion
    /// at least the dwell time after `crossingTime`. Its timestamp is when the event was decided.
    public let location: Location
}
