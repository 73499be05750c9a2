import Foundation
import Testing
import TravelogCore
@testable import TravelogTracking

@Suite("LocationManager: auto-pause, deferred updates, significant changes, one-shot requests")
struct LocationServicesTests {
    private func updating(_ configure: (inout LocationManagerConfiguration) -> Void = { _ in }) -> LocationManager {
        var configuration = LocationManagerConfiguration()
        configure(&configuration)
        var manager = LocationManager(configuration: configuration)
        manager.startUpdatingLocation()
        return manager
    }

    @Test("a walker standing still pauses after ten minutes (one event), and resumes when moving 20 m away")
    func autoPause() {
        var manager = updating { $0.pausesLocationUpdatesAutomatically = true; $0.activityType = .fitness }
        var events: [LocationManagerEvent] = []
        for second in stride(from: 0.0, through: 900, by: 30) {
            events += manager.ingest(.location(Fixes.at(northMeters: second.truncatingRemainder(dividingBy: 60) == 0 ? 0 : 6, second: second)))
        }
        #expect(events.filter { if case .didPauseLocationUpdates = $0 { true } else { false } } == [.didPauseLocationUpdates(at: Fixes.time(600))])
        #expect(events.flatMap(\.locations).count == 20)  // 0…570 s, every 30 s
        let moved = Fixes.at(northMeters: 40, second: 930)
        #expect(manager.ingest(.location(moved)) == [.didResumeLocationUpdates(at: Fixes.time(930)), .didUpdateLocations([moved])])
    }

    @Test("an airborne device never pauses")
    func airborneNeverPauses() {
        var manager = updating { $0.pausesLocationUpdatesAutomatically = true; $0.activityType = .airborne }
        let events = stride(from: 0.0, through: 3_600, by: 60).flatMap { manager.ingest(.location(Fixes.at(northMeters: 0, second: $0))) }
        #expect(events.count == 61)
    }

    @Test("deferral is refused with Core Location's error: distance filter, accuracy, not updating")
    func deferralRefused() {
        var filtered = updating { $0.distanceFilterMeters = 10 }
        #expect(filtered.allowDeferredLocationUpdates(untilTraveledMeters: 100, timeoutSeconds: nil, at: Fixes.time(0))
                == [.didFinishDeferredUpdates(.deferredDistanceFiltered)])
        var coarse = updating { $0.desiredAccuracy = .hundredMeters }
        #expect(coarse.allowDeferredLocationUpdates(untilTraveledMeters: 100, timeoutSeconds: nil, at: Fixes.time(0))
                == [.didFinishDeferredUpdates(.deferredAccuracyTooLow)])
        var idle = LocationManager()
        #expect(idle.allowDeferredLocationUpdates(untilTraveledMeters: 100, timeoutSeconds: nil, at: Fixes.time(0))
                == [.didFinishDeferredUpdates(.deferredNotUpdatingLocation)])
    }

    @Test("a deferral delivers one batch once 95 m are travelled and finishes exactly once")
    func deferralByDistance() {
        var manager = updating()
        #expect(manager.allowDeferredLocationUpdates(untilTraveledMeters: 95, timeoutSeconds: 3_600, at: Fixes.time(0)).isEmpty)
        var events: [LocationManagerEvent] = []
        for meters in stride(from: 0.0, through: 300, by: 10) {
            events += manager.ingest(.location(Fixes.at(northMeters: meters, second: meters)))
        }
        events += manager.ingest(.tick(Fixes.time(7_200)))
        #expect(events.filter { if case .didFinishDeferredUpdates = $0 { true } else { false } } == [.didFinishDeferredUpdates(nil)])
        #expect(events.first?.locations.count == 11)  // 0…100 m in one batch
        #expect(events.count == 2 + 20)               // then one event per fix again
    }

    @Test("a deferral's timeout ends it on a clock tick, with what it held")
    func deferralByTimeout() {
        var manager = updating()
        _ = manager.allowDeferredLocationUpdates(untilTraveledMeters: nil, timeoutSeconds: 60, at: Fixes.time(0))
        let fixes = [Fixes.at(northMeters: 0, second: 1), Fixes.at(northMeters: 1, second: 2)]
        #expect(fixes.flatMap { manager.ingest(.location($0)) }.isEmpty)
        #expect(manager.ingest(.tick(Fixes.time(59))).isEmpty)
        #expect(manager.ingest(.tick(Fixes.time(60))) == [.didUpdateLocations(fixes), .didFinishDeferredUpdates(nil)])
        #expect(manager.ingest(.tick(Fixes.time(120))).isEmpty)
    }

    @Test("replacing, disallowing or stopping finishes the open deferral once, cancelled")
    func deferralCancelled() {
        var manager = updating()
        _ = manager.allowDeferredLocationUpdates(untilTraveledMeters: 1_000, timeoutSeconds: nil, at: Fixes.time(0))
        #expect(manager.allowDeferredLocationUpdates(untilTraveledMeters: 1_000, timeoutSeconds: nil, at: Fixes.time(1))
                == [.didFinishDeferredUpdates(.deferredCanceled)])
        #expect(manager.disallowDeferredLocationUpdates() == [.didFinishDeferredUpdates(.deferredCanceled)])
        #expect(manager.disallowDeferredLocationUpdates().isEmpty)
        _ = manager.allowDeferredLocationUpdates(untilTraveledMeters: 1_000, timeoutSeconds: nil, at: Fixes.time(2))
        #expect(manager.stopUpdatingLocation() == [.didFinishDeferredUpdates(.deferredCanceled)])
    }

    @Test("significant changes: only after 500 m, and at most one per five minutes")
    func significantChanges() {
        var manager = LocationManager()
        manager.setMonitorsSignificantLocationChanges(true)
        var delivered: [Double] = []
        // 5 m/s for an hour, a fix every 10 s.
        for second in stride(from: 0.0, through: 3_600, by: 10) {
            let events = manager.ingest(.location(Fixes.at(northMeters: second * 5, second: second)))
            delivered += events.flatMap(\.locations).map { $0.timestamp.timeIntervalSince(Fixes.epoch) }
        }
        #expect(delivered == stride(from: 0.0, through: 3_600, by: 300).map { $0 })
        // Standing still: nothing more.
        #expect(manager.ingest(.location(Fixes.at(northMeters: 18_000, second: 4_000))).isEmpty)
    }

    @Test("a one-shot request answers the first fix that meets the accuracy, once")
    func oneShotMeetsAccuracy() {
        var manager = LocationManager(configuration: { var c = LocationManagerConfiguration(); c.desiredAccuracy = .hundredMeters; return c }())
        manager.requestLocation(at: Fixes.time(0))
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 1, accuracyMeters: 500))).isEmpty)
        let good = Fixes.at(northMeters: 0, second: 2, accuracyMeters: 65)
        #expect(manager.ingest(.location(good)) == [.didUpdateLocations([good])])
        #expect(manager.ingest(.location(Fixes.at(northMeters: 0, second: 3, accuracyMeters: 5))).isEmpty)
    }

    @Test("a one-shot request answers the best fix at its timeout, or fails with locationUnknown")
    func oneShotTimeout() {
        var manager = LocationManager()
        manager.requestLocation(at: Fixes.time(0), timeoutSeconds: 10)
        let best = Fixes.at(northMeters: 0, second: 2, accuracyMeters: 12)
        _ = manager.ingest(.location(Fixes.at(northMeters: 0, second: 1, accuracyMeters: 30)))
        _ = manager.ingest(.location(best))
        #expect(manager.ingest(.tick(Fixes.time(10))) == [.didUpdateLocations([best])])
        manager.requestLocation(at: Fixes.time(20), timeoutSeconds: 10)
        #expect(manager.ingest(.tick(Fixes.time(29))).isEmpty)
        #expect(manager.ingest(.tick(Fixes.time(30))) == [.didFail(.locationUnknown)])
        #expect(manager.ingest(.tick(Fixes.time(40))).isEmpty)
    }
}
