import Foundation
import Synchronization
import TravelogCore

/// The time zone of where a location was, from the gazetteer, remembered per cell of 0.05° (about
/// 5 km) so a long history costs one lookup per place rather than per fix.
public final class PlaceTimeZones: Sendable {
    static let cellDegrees = 0.05

    let describer: any PlaceDescriber
    private let cache = Mutex<[Int64: TimeZone?]>([:])

    public init(describer: any PlaceDescriber) {
        self.describer = describer
    }

    /// The zone at a coordinate, `nil` when the gazetteer has none.
    public func timeZone(at coordinate: Coordinate) -> TimeZone? {
        let row = Int64((coordinate.latitude / Self.cellDegrees).rounded(.down))
        let column = Int64((coordinate.longitude / Self.cellDegrees).rounded(.down))
        let key = row << 32 | (column & 0xFFFF_FFFF)
        if let known = cache.withLock({ $0[key] }) { return known }
        let zone = describer.timeZone(for: coordinate)
        cache.withLock { $0[key] = zone }
        return zone
    }

    /// The UTC offset of the place a location was at, at its time (daylight saving included).
    public func offsetSeconds(for location: Location) -> Int? {
        timeZone(at: location.coordinate).map { $0.secondsFromGMT(for: location.timestamp) }
    }
}
