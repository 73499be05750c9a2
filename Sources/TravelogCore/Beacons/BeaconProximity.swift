/// How near a ranged beacon is, in words (Core Location's `CLProximity`).
public enum BeaconProximity: Sendable, Hashable, CustomStringConvertible {
    /// Very close: held to the beacon.
    case immediate
    /// Within a couple of metres.
    case near
    /// Further away, or the signal is weak.
    case far
    /// Not heard in the last ranging interval: no estimate.
    case unknown

    public var description: String {
        switch self {
        case .immediate: "immediate"
        case .near: "near"
        case .far: "far"
        case .unknown: "unknown"
        }
    }
}
