/// Where the device is relative to a monitored region, as a state request answers it
/// (Core Location's `CLRegionState`).
public enum RegionState: Sendable, Hashable, CustomStringConvertible {
    /// The last decisive fix lay inside the region by at least the cushion.
    case inside
    /// The last decisive fix lay outside the region by at least the cushion.
    case outside
    /// No decisive fix yet since the region was registered: every fix so far was too inaccurate
    /// for the region, or lay within the cushion of its boundary.
    case unknown

    public var description: String {
        switch self {
        case .inside: "inside"
        case .outside: "outside"
        case .unknown: "unknown"
        }
    }
}
