import TravelogCore
import TravelogStore

/// What an area query adds so that PostgreSQL finds the candidates through the GiST index on
/// `(locations.position::geometry)` (migration 006): `position::geometry && envelope`, a prefilter
/// that never drops a fix the exact filter on the integer columns keeps; that filter decides.
///
/// The index compares planar boxes in degrees of longitude and latitude (the geometry of a
/// `geography(Point, 4326)` keeps its coordinates), and a latitude/longitude box is such a box:
/// its envelope holds exactly its fixes, at the poles too (latitude ±90° is a line of the plane).
/// A box across the 180th meridian (`west > east`) takes two ranges of longitude, so two
/// envelopes, either of which lets a fix through. Each envelope is widened by `marginDegrees`, so
/// that an edge the exact filter includes stays inside whatever the rounding of degrees to
/// `double`; PostGIS rounds the index's boxes outwards to `float` as well.
enum PostgresAreaPrefilter {
    /// How far an envelope reaches beyond the box, degrees (about 0.1 m; fixes are stored to 1e-7°).
    static let marginDegrees = 1e-6

    /// A planar box, degrees.
    struct Envelope: Equatable {
        var west: Double, south: Double, east: Double, north: Double
    }

    /// The envelopes of `box`: one, two across the 180th meridian, none when no stored fix can be
    /// in the box (the exact filter then finds none without help). The edges are taken as the
    /// exact filter takes them: rounded to 1e-7°; longitudes beyond ±180° are clamped.
    /// - Complexity: O(1).
    static func envelopes(of box: CoordinateBox) -> [Envelope] {
        let south = StoragePrecision.degrees(e7: StoragePrecision.e7(box.south))
        let north = StoragePrecision.degrees(e7: StoragePrecision.e7(box.north))
        let west = StoragePrecision.degrees(e7: StoragePrecision.e7(box.west))
        let east = StoragePrecision.degrees(e7: StoragePrecision.e7(box.east))
        guard [south, north, west, east].allSatisfy(\.isFinite) else { return [] }
        let low = max(south - marginDegrees, -90), high = min(north + marginDegrees, 90)
        guard low <= high else { return [] }
        var envelopes: [Envelope] = []
        func take(_ from: Double, _ to: Double) {
            let from = max(from, -180), to = min(to, 180)
            guard from <= to else { return }
            envelopes.append(Envelope(west: max(from - marginDegrees, -180), south: low,
                                      east: min(to + marginDegrees, 180), north: high))
        }
        if box.west <= box.east {
            take(west, east)
        } else {
            take(west, 180)
            take(-180, east)
        }
        return envelopes
    }

    /// The prefilter of `box` as SQL, or `nil` when it has no envelope; `parameter` binds a value
    /// and returns its placeholder.
    /// - Parameter postgis: the schema of PostGIS's types, functions and operators (quoted).
    static func condition(_ box: CoordinateBox, postgis: String, parameter: (Double) -> String) -> String? {
        let envelopes = envelopes(of: box)
        guard !envelopes.isEmpty else { return nil }
        let tests = envelopes.map { envelope in
            "position::\(postgis).geometry OPERATOR(\(postgis).&&) \(postgis).ST_MakeEnvelope("
                + "\(parameter(envelope.west)), \(parameter(envelope.south)), \(parameter(envelope.east)), \(parameter(envelope.north)), 4326)"
        }
        return "(" + tests.joined(separator: " OR ") + ")"
    }
}
