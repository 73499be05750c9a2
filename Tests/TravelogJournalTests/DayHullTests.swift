import Foundation
import Testing
import TravelogCore
import TravelogStore
@testable import TravelogJournal

/// The review keeps a day's fixes as the corners of their convex hull (`DayHull`): the furthest fix
/// from home is looked for among them.
@Suite("A day's hull")
struct DayHullTests {
    @Test("random days (a town, a region, across the antimeridian, more fixes than a fold): the corners are fixes of the day, and the furthest fix from a random home is a corner (to a metre)")
    func furthestIsACorner() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<60 {
            let center = try #require(Coordinate(validLatitude: Double.random(in: -70...70, using: &generator),
                                                 longitude: round % 3 == 0 ? 179.9 : Double.random(in: -170...170, using: &generator)))
            let spread = [500.0, 20_000, 150_000][round % 3]
            let count = round % 4 == 0 ? DayHull.foldCount * 2 + 17 : Int.random(in: 1...500, using: &generator)
            var hull = DayHull()
            var fixes: [Location] = []
            for index in 0..<count {
                let point = center.destination(bearingDegrees: Double.random(in: 0..<360, using: &generator),
                                               distanceMeters: Double.random(in: 0...spread, using: &generator))
                let location = Location(coordinate: point, horizontalAccuracyMeters: 5, timestamp: Date(timeIntervalSince1970: 1_750_000_000 + Double(index)))
                fixes.append(location)
                hull.add(location)
            }
            let corners = hull.corners
            #expect(!corners.isEmpty && corners.count <= fixes.count)
            let known = Set(fixes.map { [StoragePrecision.e7($0.coordinate.latitude), StoragePrecision.e7($0.coordinate.longitude)] })
            #expect(corners.allSatisfy { known.contains([StoragePrecision.e7($0[0]), StoragePrecision.e7($0[1])]) }, "corners are fixes")
            if count > 50 { #expect(corners.count < count / 2, "\(corners.count) corners of \(count) fixes") }
            for _ in 0..<5 {
                let home = try #require(Coordinate(validLatitude: Double.random(in: -80...80, using: &generator),
                                                   longitude: Double.random(in: -180...180, using: &generator)))
                let farthest = fixes.map { $0.coordinate.haversineDistanceMetersApproximate(to: home) }.max()!
                let amongCorners = corners.map { Coordinate(validLatitude: $0[0], longitude: $0[1])!.haversineDistanceMetersApproximate(to: home) }.max()!
                #expect(amongCorners >= farthest - 1, "home \(home), day at \(center) ±\(spread) m: \(amongCorners) against \(farthest)")
            }
        }
    }
}
