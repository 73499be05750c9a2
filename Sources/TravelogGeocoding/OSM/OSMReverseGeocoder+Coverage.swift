import Foundation
import TravelogCore

extension OSMReverseGeocoder {
    /// How much of the named streets' length lies where `isCovered` says a point was travelled.
    public struct StreetCoverage: Hashable, Sendable {
        /// The street lines measured.
        public var lines: Int
        public var lengthMeters: Double
        public var coveredMeters: Double
    }

    /// Measures the street lines that `includes` accepts (given a line's middle point): each segment
    /// is cut into pieces of at most `stepMeters`, and a piece counts as covered when `isCovered`
    /// accepts its middle.
    /// - Complexity: O(lines + their length / `stepMeters`).
    public func coverage(stepMeters: Double = 12.5, isCovered: (Coordinate) -> Bool,
                         includes: (Coordinate) -> Bool) -> StreetCoverage {
        var result = StreetCoverage(lines: 0, lengthMeters: 0, coveredMeters: 0)
        for line in streetLines {
            let start = Int(line.start), end = Int(line.end)
            guard end > start, includes(streetPoints[start + (end - start - 1) / 2]) else { continue }
            result.lines += 1
            for index in start..<(end - 1) {
                let a = streetPoints[index], b = streetPoints[index + 1]
                let meters = a.distanceMeters(to: b)
                guard meters > 0 else { continue }
                let pieces = max(1, Int((meters / stepMeters).rounded(.up)))
                result.lengthMeters += meters
                for piece in 0..<pieces {
                    let fraction = (Double(piece) + 0.5) / Double(pieces)
                    guard let middle = Coordinate(validLatitude: a.latitude + (b.latitude - a.latitude) * fraction,
                                                  longitude: a.longitude + (b.longitude - a.longitude) * fraction) else { continue }
                    if isCovered(middle) { result.coveredMeters += meters / Double(pieces) }
                }
            }
        }
        return result
    }
}
