import Foundation
import TravelogCore
import TravelogStore

/// A person's privacy zones as placing photos reads them: a position inside any zone (hide or drop)
/// is never written into a photo or its sidecar, and `photos geotag` lists the photo with the
/// zone's name instead (issue 32 item 4).
public struct PhotoPrivacyZones: Sendable {
    private let zones: [(name: String, filter: ZoneFilter)]

    public init(_ zones: [StoredZone]) {
        self.zones = zones.map { ($0.definition.name, ZoneFilter([$0], rules: Set(ZoneRule.allCases))) }
    }

    /// The name of the first zone (oldest first) that holds `coordinate`, its boundary included.
    /// - Complexity: O(z) rect tests for z zones, a shape test where the rect holds the point.
    public func zoneName(containing coordinate: Coordinate) -> String? {
        zones.first { $0.filter.contains(coordinate) }?.name
    }
}
