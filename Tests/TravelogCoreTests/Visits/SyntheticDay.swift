import Foundation
import TravelogCore
import TravelogTestSupport

/// A day written as a script: stays, moves at a speed, gaps and odd fixes, positions in metres
/// east/north of `SimulatedTrack.origin`, fixes with Gaussian noise of the given accuracy (RMS
/// radial) reported as their accuracy.
struct SyntheticDay {
    var locations: [Location] = []
    var east = 0.0, north = 0.0
    var time = 0.0
    var intervalSeconds: Double
    var accuracyMeters: Double
    var generator: SplitMix64
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    init(intervalSeconds: Double = 30, accuracyMeters: Double = 10, seed: UInt64 = 1) {
        self.intervalSeconds = intervalSeconds
        self.accuracyMeters = accuracyMeters
        generator = SplitMix64(seed: seed)
    }

    func date(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    /// One fix at the current position (plus an offset), now, then time moves on by the interval.
    mutating func fix(offsetEast: Double = 0, offsetNorth: Double = 0, accuracyMeters reported: Double? = nil,
                      speedMetersPerSecond speed: Double = -1) {
        let σ = accuracyMeters / 2.0.squareRoot()
        let coordinate = SimulatedTrack.coordinate(east: east + offsetEast + σ * generator.gaussian(),
                                                   north: north + offsetNorth + σ * generator.gaussian())
        locations.append(Location(coordinate: coordinate, horizontalAccuracyMeters: reported ?? accuracyMeters,
                                  speedMetersPerSecond: speed, timestamp: date(time)))
        time += intervalSeconds
    }

    /// Fixes at the current place for `seconds`.
    mutating func stay(seconds: Double) {
        for _ in 0..<Int((seconds / intervalSeconds).rounded()) { fix() }
    }

    /// Moves in a straight line to (`toEast`, `toNorth`) at a speed, with a fix every interval.
    mutating func move(toEast: Double, toNorth: Double, speedMetersPerSecond speed: Double, reportSpeed: Bool = false) {
        let length = hypot(toEast - east, toNorth - north)
        let steps = max(1, Int((length / (speed * intervalSeconds)).rounded()))
        let (fromEast, fromNorth) = (east, north)
        for step in 1...steps {
            let fraction = Double(step) / Double(steps)
            east = fromEast + fraction * (toEast - fromEast)
            north = fromNorth + fraction * (toNorth - fromNorth)
            fix(speedMetersPerSecond: reportSpeed ? speed : -1)
        }
    }

    /// No fixes for a while (the phone is quiet); the position may change meanwhile.
    mutating func gap(seconds: Double, toEast: Double? = nil, toNorth: Double? = nil) {
        time += seconds
        east = toEast ?? east
        north = toNorth ?? north
    }

    /// The coordinate of a point of the script.
    static func coordinate(east: Double, north: Double) -> Coordinate { SimulatedTrack.coordinate(east: east, north: north) }
}
