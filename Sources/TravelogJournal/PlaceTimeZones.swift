import Foundation
import Synchronization
import TravelogCore
import TravelogGeocoding

/// The time zone of where a location was: from the time-zone boundaries when they are loaded (the
/// zone whose polygon holds the point, `Etc/GMT±N` at sea), otherwise from the gazetteer (the zone
/// of the nearest place, which can be a town across a border), remembered per cell of 0.05° (about
/// 5 km) so a long history costs one gazetteer lookup per place rather than per fix.
public final class PlaceTimeZones: Sendable {
    static let cellDegrees = 0.05

    let describer: any PlaceDescriber
    let boundaries: TimeZoneBoundaries?
    /// The boundaries' zones as Foundation time zones (`nil` for one the system does not know).
    private let boundaryZones: [TimeZone?]
    private let cache = Mutex<[Int64: TimeZone?]>([:])

    /// - Parameters:
    ///   - describer: the gazetteer's describer, used where the boundaries are absent or say nothing.
    ///   - boundaries: the time-zone boundaries (`make timezones`), when found.
    public init(describer: any PlaceDescriber, boundaries: TimeZoneBoundaries? = nil) {
        self.describer = describer
        self.boundaries = boundaries
        boundaryZones = boundaries?.zoneIdentifiers.map(TimeZone.init(identifier:)) ?? []
    }

    /// What the zones come from, for the digest of a figure computed with them: the boundaries'
    /// zones when loaded, else the gazetteer's.
    public var identity: String {
        boundaries.map { "boundaries:\($0.zoneIdentifiers.count):\($0.zoneIdentifiers.joined(separator: ",").count)" } ?? "gazetteer"
    }

    /// The zone at a coordinate, `nil` when neither the boundaries nor the gazetteer have one.
    /// - Complexity: O(1) in most places with the boundaries (see `TimeZoneBoundaries`); one
    ///   gazetteer lookup per 0.05° cell without them.
    public func timeZone(at coordinate: Coordinate) -> TimeZone? {
        if let index = boundaries?.zoneIndex(for: coordinate), let zone = boundaryZones[index] { return zone }
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
