import Foundation
import TravelogCore

/// Builds the path the map draws for one device: the fixes split into segments where the device
/// was silent for more than an hour, each simplified (Douglas–Peucker) to what one pixel shows at
/// the requested zoom, plus the jitter-robust distance. The page then draws a few thousand points
/// for any range, never every raw fix.
struct PathBuilder {
    /// A pause longer than this (seconds) breaks the line.
    static let segmentGapSeconds: TimeInterval = 3600

    let zoom: Int
    /// Tolerance in screen pixels.
    let tolerancePixels: Double
    private(set) var segments: [[Coordinate]] = []
    private var current: [Coordinate] = []
    private var lastTime: Date?
    private(set) var rawPointCount = 0
    private(set) var first: Location?
    private(set) var last: Location?
    private var distance = TraveledDistance()
    /// The distance of the stretches before the last break (`breakLine()`).
    private var distanceBeforeBreak = 0.0

    init(zoom: Int, tolerancePixels: Double = 1) {
        self.zoom = zoom
        self.tolerancePixels = tolerancePixels
    }

    mutating func add(_ location: Location) {
        if let lastTime, location.timestamp.timeIntervalSince(lastTime) > Self.segmentGapSeconds { closeSegment() }
        current.append(location.coordinate)
        lastTime = location.timestamp
        rawPointCount += 1
        if first == nil { first = location }
        last = location
        distance.ingest(location)
    }

    var distanceMeters: Double { distanceBeforeBreak + distance.distanceMeters }

    /// Ends the line here: the next fix starts a new segment, and no distance joins the two (the
    /// fixes between them were left out, such as those inside a privacy zone).
    mutating func breakLine() {
        closeSegment()
        lastTime = nil
        distanceBeforeBreak += distance.distanceMeters
        distance = TraveledDistance()
    }

    /// Ground metres one pixel spans at the zoom, at a latitude.
    func toleranceMeters(latitudeDegrees: Double) -> Double {
        WebMercator.metersPerMapPoint(latitudeDegrees: latitudeDegrees) / MapZoom.zoomScale(zoomLevel: zoom)
            * tolerancePixels
    }

    private mutating func closeSegment() {
        guard !current.isEmpty else { return }
        let middle = current[current.count / 2].latitude
        let tolerance = toleranceMeters(latitudeDegrees: middle)
        if current.count > 2, let kept = try? DouglasPeucker.simplified(current, toleranceMeters: tolerance) {
            segments.append(kept)
        } else {
            segments.append(current)
        }
        current.removeAll(keepingCapacity: true)
    }

    /// Closes the last segment. - Returns: the simplified segments.
    mutating func finish() -> [[Coordinate]] {
        closeSegment()
        return segments
    }

    /// Simplifies further, doubling the tolerance each round, until the segments hold at most
    /// `budget` points: a zoomed-in map over a long range then gets a coarser path rather than
    /// hundreds of thousands of points it mostly cannot show.
    static func coarsened(_ segments: [[Coordinate]], budget: Int, toleranceMeters: (Double) -> Double) -> [[Coordinate]] {
        var segments = segments
        var factor = 2.0
        while segments.reduce(0, { $0 + $1.count }) > budget, factor < 1_048_576 {
            segments = segments.map { segment in
                guard segment.count > 2 else { return segment }
                let tolerance = toleranceMeters(segment[segment.count / 2].latitude) * factor
                return (try? DouglasPeucker.simplified(segment, toleranceMeters: tolerance)) ?? segment
            }
            factor *= 2
        }
        return segments
    }
}
