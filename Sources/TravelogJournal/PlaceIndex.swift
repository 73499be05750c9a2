import Foundation
import TravelogCore
import TravelogStore

/// The user's places in a grid of cells about a kilometre wide, so that filing a visit under the
/// nearest place within reach looks at the places around it, not at every place.
///
/// A visit joins a place when its center lies within the place's radius plus a slack; the grid is
/// searched as far as the largest radius plus that slack reaches, across the 180th meridian.
/// - Complexity: `insert` O(1); `nearest` O(k) for the k places in the cells within reach.
struct PlaceIndex {
    /// The side of a cell, degrees (about 1.1 km of latitude).
    static let cellDegrees = 0.01
    /// A degree of arc on the equator, metres; a degree of latitude is at least 110.57 km, so the
    /// search reaches one more cell each way than this says.
    private static let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180
    /// Metres in a degree of latitude at least (110,574 m at the equator, more towards the poles).
    private static let minimumMetersPerDegreeLatitude = 110_500.0
    private static let longitudeCells = Int((360 / cellDegrees).rounded())

    private struct Cell: Hashable {
        var row: Int
        var column: Int
    }

    private var cells: [Cell: [StoredPlace]] = [:]
    private var largestRadiusMeters = 0.0

    init(_ places: [StoredPlace]) {
        for place in places { insert(place) }
    }

    mutating func insert(_ place: StoredPlace) {
        cells[Self.cell(of: place.center), default: []].append(place)
        largestRadiusMeters = max(largestRadiusMeters, place.radiusMeters)
    }

    /// The nearest place whose radius plus `slackMeters` reaches `center` (geodesic distance).
    func nearest(to center: Coordinate, slackMeters: Double) -> StoredPlace? {
        let reachMeters = largestRadiusMeters + slackMeters
        let rows = Int((reachMeters / Self.metersPerDegree / Self.cellDegrees).rounded(.up)) + 1
        let cosine = cos(center.latitude * .pi / 180)
        let columnsNeeded = cosine < 1e-3 ? Self.longitudeCells
            : Int((reachMeters / (Self.metersPerDegree * cosine) / Self.cellDegrees).rounded(.up)) + 1
        let columns = min(columnsNeeded, Self.longitudeCells / 2)
        let middle = Self.cell(of: center)
        var best: (place: StoredPlace, meters: Double)?
        for row in (middle.row - rows)...(middle.row + rows) {
            for offset in -columns...columns {
                let column = ((middle.column + offset) % Self.longitudeCells + Self.longitudeCells) % Self.longitudeCells
                for place in cells[Cell(row: row, column: column)] ?? [] {
                    // The geodesic is at least the meridian arc between the two latitudes: a place
                    // that is too far north or south is passed over without solving it.
                    let reach = place.radiusMeters + slackMeters
                    guard abs(place.center.latitude - center.latitude) * Self.minimumMetersPerDegreeLatitude <= reach
                    else { continue }
                    let meters = place.center.distanceMeters(to: center)
                    guard meters <= reach else { continue }
                    if best.map({ meters < $0.meters || (meters == $0.meters && place.id < $0.place.id) }) ?? true {
                        best = (place, meters)
                    }
                }
            }
        }
        return best?.place
    }

    private static func cell(of coordinate: Coordinate) -> Cell {
        let row = Int((coordinate.latitude / cellDegrees).rounded(.down))
        let column = Int(((coordinate.longitude + 180) / cellDegrees).rounded(.down))
        return Cell(row: row, column: (column % longitudeCells + longitudeCells) % longitudeCells)
    }
}
