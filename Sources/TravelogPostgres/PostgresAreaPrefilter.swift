import TravelogCore
import TravelogStore

/// The geography an area query compares with `locations.position` through the GiST index
/// (`position && cover`), chosen so that the comparison never drops a fix the exact filter on the
/// integer columns keeps: a prefilter, a superset of the box.
///
/// PostGIS's `&&` on geography compares geocentric boxes: the smallest box in x, y, z (on the
/// unit sphere) around each value. The obvious key, the box as a geography polygon
/// (`ST_MakeEnvelope(…)::geography`), is the wrong shape: a polygon's edges are great circles, and
/// the great circle between two corners at latitude 30° runs up to 49° at the box's middle
/// meridian (for a box 120° wide), so a fix at 30.5° N inside the latitude/longitude box lies
/// outside the polygon's geocentric box and `&&` would drop it. Any box more than a few degrees
/// wide misses fixes near its edges that way.
///
/// The cover is instead the set of points (a MULTIPOINT) where the box's geocentric coordinates
/// reach their extremes, so its geocentric box is the box's own. Each coordinate is a product of
/// a function of latitude and one of longitude (x = cos φ cos λ, y = cos φ sin λ, z = sin φ), so on
/// a latitude/longitude box it is extreme at an edge or where cos or sin is: latitudes `south`,
/// `north` and 0 when between; longitudes the edges and -180°, -90°, 0°, 90°, 180° when inside.
/// The box is widened by `marginDegrees` first, which puts the trigonometry's rounding (about
/// 1e-16) on the safe side; PostGIS rounds its boxes outwards to `float` as well.
///
/// The 180th meridian (`west > east`: two longitude ranges) and the poles (latitude ±90°, where
/// every longitude is one point) need nothing special: the cover holds the extremes of each range.
enum PostgresAreaPrefilter {
    /// How far the cover reaches beyond the box, degrees (about 0.1 m; fixes are stored to 1e-7°).
    static let marginDegrees = 1e-6

    /// The longitudes at which sin or cos is extreme.
    static let turningLongitudes: [Double] = [-180, -90, 0, 90, 180]

    /// The cover of `box` as WKT (`MULTIPOINT((longitude latitude), …)`, degrees), or `nil` when
    /// no stored fix can be in the box (the exact filter then finds none without help).
    /// The edges are taken as the exact filter takes them: rounded to 1e-7°.
    /// - Complexity: O(1); at most 3 × 14 points.
    static func cover(of box: CoordinateBox) -> String? {
        let south = StoragePrecision.degrees(e7: StoragePrecision.e7(box.south))
        let north = StoragePrecision.degrees(e7: StoragePrecision.e7(box.north))
        let west = StoragePrecision.degrees(e7: StoragePrecision.e7(box.west))
        let east = StoragePrecision.degrees(e7: StoragePrecision.e7(box.east))
        guard [south, north, west, east].allSatisfy(\.isFinite) else { return nil }
        let low = max(south - marginDegrees, -90), high = min(north + marginDegrees, 90)
        guard low <= high else { return nil }
        var latitudes = [low, high]
        if low < 0, high > 0 { latitudes.append(0) }

        // The stored longitudes the box takes (-180...180), as one or two ranges.
        var ranges: [ClosedRange<Double>] = []
        func take(_ from: Double, _ to: Double) {
            let from = max(from, -180), to = min(to, 180)
            if from <= to { ranges.append(max(from - marginDegrees, -180)...min(to + marginDegrees, 180)) }
        }
        if box.west <= box.east {
            take(west, east)
        } else {
            take(west, 180)
            take(-180, east)
        }
        guard !ranges.isEmpty else { return nil }
        var longitudes: [Double] = []
        for range in ranges {
            longitudes += [range.lowerBound, range.upperBound] + turningLongitudes.filter(range.contains)
        }

        var points: [String] = []
        for latitude in latitudes {
            for longitude in longitudes {
                points.append("(\(longitude) \(latitude))")
            }
        }
        return "MULTIPOINT(\(points.joined(separator: ", ")))"
    }
}
