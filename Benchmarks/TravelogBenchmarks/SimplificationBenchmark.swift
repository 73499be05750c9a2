import Foundation
import TravelogCore

/// Douglas–Peucker, the jitter-robust distance and the path figures over a generated 1M-point
/// track (fixed seed, so every run measures the same input).
enum SimplificationBenchmark {
    static let pointCount = 1_000_000
    static let runs = 7

    static func run(_ context: BenchmarkContext) throws {
        let (locations, trueMeters) = generatedTrack()
        let coordinates = locations.map(\.coordinate)
        print(String(format: "track: %d fixes, 1 s apart, 5 m noise (RMS), stays, walks, rides and drives; %.1f km of true way",
                     locations.count, trueMeters / 1000))

        for tolerance in [1.0, 5, 20] {
            var kept = 0
            let seconds = try best { kept = try DouglasPeucker.keptIndices(of: coordinates, toleranceMeters: tolerance).count }
            print(String(format: "douglas-peucker %4.0f m: %6.1f ms  %5.1f M points/s  kept %d (%.1f %%)",
                         tolerance, seconds * 1000, Double(pointCount) / seconds / 1e6, kept, 100 * Double(kept) / Double(pointCount)))
        }
        var simplifiedLocations = 0
        let locationSeconds = try best { simplifiedLocations = try DouglasPeucker.simplified(locations, toleranceMeters: 5).count }
        print(String(format: "douglas-peucker    5 m on [Location], returning locations: %6.1f ms  %5.1f M points/s  kept %d",
                     locationSeconds * 1000, Double(pointCount) / locationSeconds / 1e6, simplifiedLocations))

        var distance = TraveledDistance()
        let distanceSeconds = try best { distance = TraveledDistance(locations) }
        print(String(format: "traveled distance: %6.1f ms  %5.2f M locations/s  %.1f km traveled, %.1f h moving",
                     distanceSeconds * 1000, Double(pointCount) / distanceSeconds / 1e6,
                     distance.distanceMeters / 1000, distance.movingDurationSeconds / 3600))

        var figures = PathFigures()
        let figuresSeconds = try best { figures = PathFigures(locations) }
        print(String(format: "path figures:      %6.1f ms  %5.2f M locations/s  length %.1f km (raw), traveled %.1f km, max %.1f m/s, gain %.0f m",
                     figuresSeconds * 1000, Double(pointCount) / figuresSeconds / 1e6, figures.lengthMeters / 1000,
                     figures.traveledDistanceMeters / 1000, figures.maximumSpeedMetersPerSecond ?? -1, figures.elevationGainMeters))
    }

    /// The fastest of `runs` runs, seconds.
    static func best(_ body: () throws -> Void) throws -> Double {
        var fastest = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let elapsed = try clock.measure(body)
            fastest = min(fastest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return fastest
    }

    /// A seeded random walk through stays, walks, rides and drives (1 to 16 minutes each), fixes
    /// every second with 5 m of Gaussian noise, over rolling hills.
    static func generatedTrack() -> (locations: [Location], trueMeters: Double) {
        var random = SplitMix64(seed: 2024)
        var latitude = 47.3769, longitude = 8.5417, heading = 0.0, traveledMeters = 0.0
        var speed = 0.0, modeSecondsLeft = 0
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        var locations: [Location] = []
        locations.reserveCapacity(pointCount)
        for second in 0..<pointCount {
            if modeSecondsLeft == 0 {
                speed = [0, 0, 1.4, 1.4, 5, 15][Int(random.next() % 6)]
                modeSecondsLeft = 60 + Int(random.next() % 900)
            }
            modeSecondsLeft -= 1
            heading += random.gaussian() * (speed > 5 ? 2 : 6) * .pi / 180
            let φ = latitude * .pi / 180
            let w = (1 - WGS84.eccentricitySquared * sin(φ) * sin(φ)).squareRoot()
            let metersPerRadianNorth = WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared) / (w * w * w)
            let metersPerRadianEast = WGS84.semiMajorAxisMeters / w * cos(φ)
            latitude += speed * cos(heading) / metersPerRadianNorth * 180 / .pi
            longitude += speed * sin(heading) / metersPerRadianEast * 180 / .pi
            traveledMeters += speed
            let σ = 5 / 2.0.squareRoot()
            let noisyLatitude = latitude + σ * random.gaussian() / metersPerRadianNorth * 180 / .pi
            let noisyLongitude = longitude + σ * random.gaussian() / metersPerRadianEast * 180 / .pi
            guard let coordinate = Coordinate(validLatitude: noisyLatitude, longitude: noisyLongitude) else { continue }
            // Rolling hills: ±50 m every 5 km of way, with 0.5 m of altitude noise.
            let altitude = 400 + 50 * sin(traveledMeters / 5_000 * 2 * .pi) + 0.5 * random.gaussian()
            locations.append(Location(coordinate: coordinate, altitudeMeters: altitude,
                                      horizontalAccuracyMeters: 5, timestamp: start.addingTimeInterval(Double(second))))
        }
        return (locations, traveledMeters)
    }
}

