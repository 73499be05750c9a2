import Foundation

/// Which side of a region's boundary a fix lies on, once the cushion is taken into account.
enum RegionSide: Sendable, Hashable {
    /// Inside by at least the cushion.
    case inside
    /// Outside by at least the cushion.
    case outside
    /// Within the cushion of the boundary, on either side: says nothing.
    case withinCushion
}

/// A fix prepared once for every region it is tested against.
struct RegionFix {
    let coordinate: Coordinate
    /// The fix on the ellipsoid, for circles.
    let surfacePoint: SurfacePoint
    /// Metres per degree of longitude and of latitude at the fix (`N cos φ · π/180`,
    /// `M · π/180`), for polygons.
    let metersPerDegreeLongitude: Double
    let metersPerDegreeLatitude: Double

    init(_ coordinate: Coordinate) {
        self.coordinate = coordinate
        surfacePoint = SurfacePoint(coordinate)
        let φ = coordinate.latitude * .pi / 180
        let sine = sin(φ), e2 = WGS84.eccentricitySquared
        let w = (1 - e2 * sine * sine).squareRoot()
        let primeVertical = WGS84.semiMajorAxisMeters / w
        let meridional = WGS84.semiMajorAxisMeters * (1 - e2) / (w * w * w)
        metersPerDegreeLongitude = primeVertical * cos(φ) * .pi / 180
        metersPerDegreeLatitude = meridional * .pi / 180
    }
}

/// A monitored region prepared for fast side tests: the cushion it uses, the accuracy it can
/// resolve, and the map rect outside which every place is outside it by more than the cushion.
struct RegionGeometry: Sendable {
    private enum Kind: Sendable {
        case circle(center: Coordinate, centerPoint: SurfacePoint, radiusMeters: Double)
        case polygon(rings: [[Coordinate]])
    }

    private let kind: Kind
    /// The cushion this region uses, metres.
    let cushionMeters: Double
    /// The worst horizontal accuracy that can still place a fix on a side of this region, metres.
    let resolvableAccuracyMeters: Double
    /// A rect holding every place within the cushion of the region (it may extend east of the
    /// world across the 180th meridian).
    let searchRect: MapRect
    /// The search rect cut at the 180th meridian, in the world's x range: the part west of the
    /// cut (or the whole rect), and the part east of it (``MapRect/null`` when not cut).
    private let searchPart: MapRect
    private let searchRemainder: MapRect

    /// The smallest radius of curvature of the WGS84 ellipsoid, `a (1 − e²)` (the meridian's at
    /// the equator), metres: no geodesic bends more sharply than a circle of this radius.
    static let smallestCurvatureRadiusMeters = WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared)

    init(_ region: MonitoredRegion, equivalentRadiusMeters radius: Double, configuration: RegionMonitor.Configuration) {
        cushionMeters = min(configuration.cushionMeters, radius / 2)
        resolvableAccuracyMeters = configuration.maximumAccuracyToRadiusRatio * radius
        switch region.shape {
        case .circle(let circle):
            kind = .circle(center: circle.center, centerPoint: SurfacePoint(circle.center), radiusMeters: circle.radiusMeters)
            // The disc grown by the cushion; Circle's bounds already hold the whole disc.
            let grown = try? Circle(center: circle.center, radiusMeters: circle.radiusMeters + cushionMeters + 1)
            searchRect = grown?.boundingMapRect ?? .world
        case .polygon(let polygon):
            kind = .polygon(rings: [polygon.exteriorRing] + polygon.interiorRings)
            searchRect = Self.grownRect(ring: polygon.exteriorRing, byMeters: cushionMeters)
        }
        let parts = searchRect.worldParts
        searchPart = parts.first ?? .null
        searchRemainder = parts.count > 1 ? parts[1] : .null
    }

    /// Whether the search rect holds a point of the world (x in [0, 2^28]); a place outside it
    /// lies outside the region by more than the cushion.
    /// - Complexity: O(1), no allocation.
    @inline(__always)
    func searchRectHolds(_ point: MapPoint) -> Bool {
        if searchPart.contains(point) || searchRemainder.contains(point) { return true }
        // x = 2^28 is the 180th meridian, which is also x = 0.
        guard point.x >= WebMercator.worldSizeMapPoints else { return false }
        let west = MapPoint(x: 0, y: point.y)
        return searchPart.contains(west) || searchRemainder.contains(west)
    }

    /// The rect of a ring (unwrapped across the 180th meridian like a polyline) grown by a
    /// distance. Web Mercator's scale at a latitude, `2^28 / (2π a cos φ)` map points per metre,
    /// exceeds the ground scale east–west (the parallel's radius `N cos φ` ≥ `a cos φ`) and falls
    /// short of it north–south by at most the factor `a / M` ≤ 1 / (1 − e²) < 1.007; the margin
    /// uses the most poleward latitude the grown rect reaches and a factor of 1.01.
    private static func grownRect(ring: [Coordinate], byMeters meters: Double) -> MapRect {
        let rect = Polyline(coordinates: ring + [ring[0]]).boundingMapRect
        let polewardDegrees = ring.map { abs($0.latitude) }.max() ?? 0
        let marginDegrees = meters / smallestCurvatureRadiusMeters * 180 / .pi
        let latitude = min(polewardDegrees + marginDegrees, WebMercator.maximumLatitudeDegrees)
        let margin = 1.01 * meters * WebMercator.mapPointsPerMeter(latitudeDegrees: latitude) + 1
        return rect.insetBy(dx: -margin, dy: -margin)
    }

    /// The side of the boundary the fix lies on.
    /// - Complexity: O(1) for a circle (a chord, and a geodesic only when the chord's bounds
    ///   straddle a threshold); O(n) for a polygon of n positions.
    func side(of fix: RegionFix) -> RegionSide {
        switch kind {
        case let .circle(center, centerPoint, radius):
            return circleSide(of: fix, center: center, centerPoint: centerPoint, radiusMeters: radius)
        case .polygon(let rings):
            return Self.side(signedDistanceMeters: polygonSignedDistance(of: fix, rings: rings), cushionMeters: cushionMeters)
        }
    }

    static func side(signedDistanceMeters distance: Double, cushionMeters: Double) -> RegionSide {
        if distance >= cushionMeters { return .outside }
        if distance <= -cushionMeters { return .inside }
        return .withinCushion
    }

    /// The geodesic distance `s` from the centre is bracketed by the chord `c`: `c ≤ s`, and since
    /// no geodesic curves more than a circle of radius ρ (the smallest radius of curvature),
    /// `s ≤ 2ρ asin(c / 2ρ)` (Schur's comparison theorem for curves of bounded curvature). Only
    /// when the bracket straddles `r ± cushion` is the geodesic solved (Karney 2013).
    private func circleSide(of fix: RegionFix, center: Coordinate, centerPoint: SurfacePoint, radiusMeters: Double) -> RegionSide {
        let chord = centerPoint.chordMeters(to: fix.surfacePoint)
        let ρ = Self.smallestCurvatureRadiusMeters
        let slackMeters = 1e-6  // round-off of the Cartesian coordinates, far above it
        let lower = chord - slackMeters
        let upper = chord < ρ ? 2 * ρ * asin(chord / (2 * ρ)) + slackMeters : Double.infinity
        let outer = radiusMeters + cushionMeters, inner = radiusMeters - cushionMeters
        if lower >= outer { return .outside }
        if upper <= inner { return .inside }
        if lower > inner, upper < outer { return .withinCushion }
        return Self.side(signedDistanceMeters: center.distanceMeters(to: fix.coordinate) - radiusMeters, cushionMeters: cushionMeters)
    }

    /// The distance from the fix to the nearest edge, negative inside, metres.
    ///
    /// Edges are straight in longitude and latitude; an affine map of them, `x = Δλ · N cos φ₀`,
    /// `y = Δφ · M₀` around the fix (longitudes taken the short way round from it), keeps them
    /// straight and is true to scale at the fix, where the nearest edge matters. The side is the
    /// parity of the crossings of a ray towards east (even-odd rule, as ``Polygon/contains(_:rule:)``),
    /// computed in the same pass.
    private func polygonSignedDistance(of fix: RegionFix, rings: [[Coordinate]]) -> Double {
        let φ0 = fix.coordinate.latitude, λ0 = fix.coordinate.longitude
        let kx = fix.metersPerDegreeLongitude, ky = fix.metersPerDegreeLatitude
        @inline(__always) func local(_ vertex: Coordinate) -> (x: Double, y: Double) {
            var Δλ = vertex.longitude - λ0
            if Δλ > 180 { Δλ -= 360 } else if Δλ < -180 { Δλ += 360 }
            return (Δλ * kx, (vertex.latitude - φ0) * ky)
        }
        var nearestSquared = Double.infinity
        var crossings = 0
        for ring in rings {
            var a = local(ring[ring.count - 1])
            for vertex in ring {
                let b = local(vertex)
                defer { a = b }
                if (a.y <= 0 && b.y > 0) || (b.y <= 0 && a.y > 0) {
                    let x = a.x + (0 - a.y) * (b.x - a.x) / (b.y - a.y)
                    if x > 0 { crossings += 1 }
                }
                let dx = b.x - a.x, dy = b.y - a.y
                let lengthSquared = dx * dx + dy * dy
                let t = lengthSquared > 0 ? min(max(-(a.x * dx + a.y * dy) / lengthSquared, 0), 1) : 0
                let ex = a.x + t * dx, ey = a.y + t * dy
                nearestSquared = min(nearestSquared, ex * ex + ey * ey)
            }
        }
        let distance = nearestSquared.squareRoot()
        return crossings % 2 == 1 ? -distance : distance
    }
}
