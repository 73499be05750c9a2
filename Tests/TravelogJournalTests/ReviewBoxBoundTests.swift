import Foundation
import Testing
import TravelogCore
@testable import TravelogJournal

/// The bound that decides which kept days a review reads again for the furthest point from home
/// (`PeriodReviewDays.farthest(from:inBox:)`): never below the distance of any point of the box, and
/// close to the farthest one found by measuring a fine grid of the box's points.
@Suite("The farthest point of a day's box")
struct ReviewBoxBoundTests {
    @Test("random homes and boxes (small and large, across the antimeridian of home, near the poles): the bound holds every grid point and no more than half a grid cell beyond the farthest")
    func bound() throws {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for round in 0..<400 {
            let home = try #require(Coordinate(validLatitude: Double.random(in: -89...89, using: &generator),
                                               longitude: Double.random(in: -180...180, using: &generator)))
            let size = round % 2 == 0 ? Double.random(in: 0.001...0.5, using: &generator) : Double.random(in: 1...170, using: &generator)
            let south = Double.random(in: -90...(90 - min(size, 179)), using: &generator)
            let north = min(90, south + Double.random(in: 0...size, using: &generator))
            let west = Double.random(in: -180...(180 - size), using: &generator)
            let east = west + size
            let box = [south, north, west, east]
            let bound = try #require(PeriodReviewDays.farthest(from: home, inBox: box))
            var farthest = 0.0
            let steps = 60
            for i in 0...steps {
                for j in 0...steps {
                    let latitude = south + (north - south) * Double(i) / Double(steps)
                    let longitude = west + (east - west) * Double(j) / Double(steps)
                    let point = try #require(Coordinate(validLatitude: latitude, longitude: longitude))
                    farthest = max(farthest, point.haversineDistanceMetersApproximate(to: home))
                }
            }
            #expect(farthest <= bound * (1 + 1e-12) + 1e-6, "home \(home), box \(box): a point at \(farthest) m beyond the bound \(bound) m")
            // Every point of the box lies within half a grid cell's diagonal of a grid point, and the
            // distance changes by at most the distance moved: the bound is the box's farthest point.
            let cell = 111_195.0 / Double(steps) * ((north - south) * (north - south) + (east - west) * (east - west)).squareRoot()
            #expect(bound <= farthest + cell / 2 + 1, "home \(home), box \(box): bound \(bound) m, found \(farthest) m")
            checked += 1
        }
        #expect(checked == 400)
        let berlin = try #require(Coordinate(validLatitude: 52.52, longitude: 13.405))
        #expect(PeriodReviewDays.farthest(from: berlin, inBox: [0, 1, -100, 100]) == nil, "wider than 180°: no bound")
        // The antipode inside the box: half the Earth's circumference.
        let reach = try #require(PeriodReviewDays.farthest(from: berlin, inBox: [-53, -52, -167, -166]))
        #expect(abs(reach - .pi * WGS84.meanRadiusMeters) < 10_000)
    }
}
