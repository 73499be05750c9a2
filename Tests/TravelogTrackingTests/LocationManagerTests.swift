import Foundation
import Testing
import TravelogCore
@testable import TravelogTracking

@Suite("LocationManager: Core Location's standard service")
struct LocationManagerTests {
    private func manager(_ configure: (inout LocationManagerConfiguration) -> Void = { _ in }) -> LocationManager {
        var configuration = LocationManagerConfiguration()
        configure(&configuration)
        var manager = LocationManager(configuration: configuration)
        manager.startUpdatingLocation()
        return manager
    }

    @Test("with the defaults every fix is delivered, one event each, even a bad or unknown accuracy")
    func defaultsKeepEverything() {
        var manager = manager()
        let fixes = [Fixes.at(northMeters: 0, second: 0), Fixes.at(northMeters: 0.5, second: 1, accuracyMeters: 900),
                     Fixes.at(northMeters: 0.5, second: 2, accuracyMeters: -1)]
        let events = fixes.flatMap { manager.ingest(.location($0)) }
        #expect(events == fixes.map { .didUpdateLocations([$0]) })
    }

    @Test("nothing is delivered before startUpdatingLocation or after stopUpdatingLocation")
    func onlyWhileUpdating() {
        var manager = LocationManager()
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 0))).isEmpty)
        manager.startUpdatingLocation()
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 1))).count == 1)
        #expect(manager.stopUpdatingLocation().isEmpty)
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 2))).isEmpty)
    }

    @Test("a 45 m distance filter delivers a fix only 45 m or more from the last delivered one")
    func distanceFilter() {
        var manager = manager { $0.distanceFilterMeters = 45 }
        let delivered = stride(from: 0.0, through: 200, by: 10).flatMap {
            manager.ingest(.location(Fixes.at(northMeters: $0, second: $0))).flatMap(\.locations)
        }
        #expect(delivered.map { ($0.timestamp.timeIntervalSince(Fixes.epoch)) } == [0, 50, 100, 150, 200])
    }

    @Test("a fix worse than the desired accuracy is held back and dropped when a better one comes")
    func heldBackThenDropped() {
        var manager = manager { $0.desiredAccuracy = .nearestTenMeters }
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 0, accuracyMeters: 40))).isEmpty)
        let good = Fixes.at(northMeters: 1, second: 5, accuracyMeters: 8)
        #expect(manager.ingest(.location(good)) == [.didUpdateLocations([good])])
        #expect(manager.ingest(.tick(Fixes.time(100))).isEmpty)
    }

    @Test("when no better fix comes within the hold, the most accurate held fix is delivered")
    func bestHeldReleased() {
        var manager = manager { $0.desiredAccuracy = .nearestTenMeters; $0.accuracyHoldSeconds = 30 }
        let better = Fixes.at(northMeters: 1, second: 10, accuracyMeters: 25)
        _ = manager.ingest(.location(Fixes.at(northMeters: 0, second: 0, accuracyMeters: 40)))
        _ = manager.ingest(.location(better))
        _ = manager.ingest(.location(Fixes.at(northMeters: 2, second: 20, accuracyMeters: 60)))
        #expect(manager.ingest(.tick(Fixes.time(29))).isEmpty)
        #expect(manager.ingest(.tick(Fixes.time(30))) == [.didUpdateLocations([better])])
    }

    @Test("updates stop when fixes miss the desired accuracy without improving for the stall time")
    func stopsWhenAccuracyStalls() {
        var manager = manager { $0.desiredAccuracy = .nearestTenMeters; $0.stopWhenAccuracyStallsSeconds = 60; $0.accuracyHoldSeconds = 1_000 }
        for second in stride(from: 0.0, to: 60, by: 5) {
            #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: second, accuracyMeters: 50))).isEmpty)
        }
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 60, accuracyMeters: 50))) == [.didStopUpdatingLocation(at: Fixes.time(60))])
        #expect(!manager.isUpdatingLocation)
    }

    @Test("improving accuracy keeps updates running")
    func improvingAccuracyKeepsRunning() {
        var manager = manager { $0.desiredAccuracy = .nearestTenMeters; $0.stopWhenAccuracyStallsSeconds = 60; $0.accuracyHoldSeconds = 1_000 }
        for (index, second) in stride(from: 0.0, through: 120, by: 20).enumerated() {
            _ = manager.ingest(.location(Fixes.at(northMeters: 0, second: second, accuracyMeters: 80 - Double(index) * 5)))
        }
        #expect(manager.isUpdatingLocation)
    }
}
