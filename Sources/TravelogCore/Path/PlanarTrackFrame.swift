import Foundation

/// The plane on which `DouglasPeucker` works: an equirectangular projection centred on a track,
/// in metres, with what it takes to turn a planar tolerance into a guarantee on the ellipsoid.
///
/// `x = (λ − λ₀) · N₀ cos φ₀` and `y = (φ − φ₀) · M₀`, where φ₀, λ₀ is the centre of the track's
/// latitude and longitude ranges and N₀, M₀ are the WGS84 radii of curvature there. Longitudes
/// are unwrapped point to point (each step taken the short way round), so a track that crosses
/// the antimeridian stays continuous.
///
/// Two errors separate planar from true distances, and both are bounded:
/// - **scale**: east–west metres are exact only at φ₀ (true = N cos φ / (N₀ cos φ₀) × planar) and
///   north–south metres vary with M. `worstScale` is the largest ratio of true to planar length
///   over the track's latitudes; dividing a tolerance by it makes it safe everywhere.
/// - **curvature**: a straight planar segment is not the geodesic between its ends; they part by
///   at most about `d² · |tan φ| / (4 R)` for a chord of true length `d` (the geodesic's curvature
///   in this frame), which the simplifier keeps below a small share of the tolerance by splitting
///   longer chords. Close to a pole |tan φ| grows without bound, so chords become short and the
///   simplifier keeps more points: the price of never dropping a point wrongly there.
struct PlanarTrackFrame: Sendable {
    /// Ratio of true to planar length, at most, anywhere on the track (≥ 1).
    let worstScale: Double
    /// |tan φ| at the track's most poleward latitude.
    let poleward: Double

    /// Projects the points into `x` and `y` (metres) and returns the frame.
    /// - Precondition: `points` is not empty; `x` and `y` hold at least `points.count` elements.
    @inline(__always)
    init<Point>(projecting points: UnsafeBufferPointer<Point>, coordinate: (Point) -> Coordinate,
                x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>) {
        let count = points.count
        // Pass 1: latitudes as they are, longitudes unwrapped; the ranges of both.
        var minimumLatitude = Double.infinity, maximumLatitude = -Double.infinity
        var minimumLongitude = Double.infinity, maximumLongitude = -Double.infinity
        var previousLongitude = coordinate(points[0]).longitude, unwrapped = previousLongitude
        for index in 0..<count {
            let point = coordinate(points[index])
            let φ = point.latitude, λ = point.longitude
            var step = λ - previousLongitude
            if step > 180 { step -= 360 } else if step < -180 { step += 360 }
            unwrapped += step
            previousLongitude = λ
            y[index] = φ
            x[index] = unwrapped
            minimumLatitude = min(minimumLatitude, φ)
            maximumLatitude = max(maximumLatitude, φ)
            minimumLongitude = min(minimumLongitude, unwrapped)
            maximumLongitude = max(maximumLongitude, unwrapped)
        }
        let φ0 = (minimumLatitude + maximumLatitude) / 2, λ0 = (minimumLongitude + maximumLongitude) / 2
        let east = PlanarTrackFrame.primeVerticalRadius(φ0) * cos(φ0 * .pi / 180)
        let north = PlanarTrackFrame.meridionalRadius(φ0)
        // Pass 2: to metres.
        let eastPerDegree = east * .pi / 180, northPerDegree = north * .pi / 180
        for index in 0..<count {
            x[index] = (x[index] - λ0) * eastPerDegree
            y[index] = (y[index] - φ0) * northPerDegree
        }
        // East–west scale is largest nearest the equator, north–south scale farthest from it.
        let equatorward = minimumLatitude > 0 ? minimumLatitude : (maximumLatitude < 0 ? maximumLatitude : 0)
        let polewardLatitude = max(abs(minimumLatitude), abs(maximumLatitude))
        let eastScale = PlanarTrackFrame.primeVerticalRadius(equatorward) * cos(equatorward * .pi / 180) / max(east, .leastNormalMagnitude)
        let northScale = PlanarTrackFrame.meridionalRadius(polewardLatitude) / north
        worstScale = max(1, eastScale, northScale)
        poleward = abs(tan(polewardLatitude * .pi / 180))
    }

    /// The longest planar chord, squared (m²), whose parting from the geodesic stays below
    /// `allowanceMeters`: from `d² |tan φ| / (4 R) ≤ allowance` with `d` = worstScale × planar length
    /// (plus 0.01 in the tangent for the ellipsoid's own small departures from the model).
    func maximumChordSquared(allowanceMeters: Double) -> Double {
        4 * WGS84.semiMajorAxisMeters * allowanceMeters / ((poleward + 0.01) * worstScale * worstScale)
    }

    /// Radius of curvature in the prime vertical, N(φ), metres.
    static func primeVerticalRadius(_ latitudeDegrees: Double) -> Double {
        let s = sin(latitudeDegrees * .pi / 180)
        return WGS84.semiMajorAxisMeters / (1 - WGS84.eccentricitySquared * s * s).squareRoot()
    }

    /// Radius of curvature of the meridian, M(φ), metres.
    static func meridionalRadius(_ latitudeDegrees: Double) -> Double {
        let s = sin(latitudeDegrees * .pi / 180)
        let w = (1 - WGS84.eccentricitySquared * s * s).squareRoot()
        return WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared) / (w * w * w)
    }
}
