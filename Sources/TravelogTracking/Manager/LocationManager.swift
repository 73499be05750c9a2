import Foundation
import TravelogCore

/// Core Location's `CLLocationManager` as a plain state machine: fixes and clock ticks go in,
/// delegate events come out. No threads, no timers: the caller feeds `.tick` when no fix comes
/// (the fixes' own timestamps are the clock otherwise, so a replay as fast as possible behaves
/// like the real thing).
///
/// A fix of the standard service passes, in order: auto-pause (`AutoPauseDetector`), the desired
/// accuracy (`AccuracyGate`), the distance filter (`DistanceFilter`), then an open deferral
/// (`DeferredUpdateBatch`) or straight out. The significant-change service
/// (`SignificantChangeFilter`) and a one-shot request (`OneShotLocationRequest`) look at every
/// raw fix independently, as in Core Location.
///
/// Source: Apple, Core Location documentation (`CLLocationManager`, `CLLocationManagerDelegate`,
/// `CLError`).
/// - Complexity: O(1) per fix.
public struct LocationManager: Sendable {
    /// What goes in.
    public enum Input: Hashable, Sendable {
        /// A fix from the receiver.
        case location(Location)
        /// Time passes without a fix.
        case tick(Date)
    }

    public let configuration: LocationManagerConfiguration
    public private(set) var isUpdatingLocation = false
    public private(set) var isMonitoringSignificantLocationChanges = false
    private var gate: AccuracyGate
    private var distanceFilter: DistanceFilter
    private var autoPause: AutoPauseDetector?
    private var deferral: DeferredUpdateBatch?
    private var significantChanges = SignificantChangeFilter()
    private var oneShot: OneShotLocationRequest?

    public init(configuration: LocationManagerConfiguration = LocationManagerConfiguration()) {
        self.configuration = configuration
        gate = AccuracyGate(desiredAccuracy: configuration.desiredAccuracy, holdSeconds: configuration.accuracyHoldSeconds)
        distanceFilter = DistanceFilter(minimumDistanceMeters: configuration.distanceFilterMeters)
        autoPause = Self.makeAutoPause(configuration)
    }

    private static func makeAutoPause(_ configuration: LocationManagerConfiguration) -> AutoPauseDetector? {
        guard configuration.pausesLocationUpdatesAutomatically, let tuning = configuration.activityType.autoPause else { return nil }
        return AutoPauseDetector(tuning: tuning)
    }

    /// `startUpdatingLocation()`.
    public mutating func startUpdatingLocation() {
        guard !isUpdatingLocation else { return }
        isUpdatingLocation = true
        gate = AccuracyGate(desiredAccuracy: configuration.desiredAccuracy, holdSeconds: configuration.accuracyHoldSeconds)
        distanceFilter = DistanceFilter(minimumDistanceMeters: configuration.distanceFilterMeters)
        autoPause = Self.makeAutoPause(configuration)
    }

    /// `stopUpdatingLocation()`; an open deferral finishes, cancelled.
    public mutating func stopUpdatingLocation() -> [LocationManagerEvent] {
        isUpdatingLocation = false
        return cancelDeferral()
    }

    /// `startMonitoringSignificantLocationChanges()` / `stop…`.
    public mutating func setMonitorsSignificantLocationChanges(_ monitors: Bool) {
        if monitors && !isMonitoringSignificantLocationChanges { significantChanges = SignificantChangeFilter() }
        isMonitoringSignificantLocationChanges = monitors
    }

    /// `requestLocation()`: one fix, answered with `didUpdateLocations` or `didFail`.
    public mutating func requestLocation(at now: Date, timeoutSeconds: Double = OneShotLocationRequest.defaultTimeoutSeconds) {
        oneShot = OneShotLocationRequest(desiredAccuracy: configuration.desiredAccuracy, requestedAt: now, timeoutSeconds: timeoutSeconds)
    }

    /// `allowDeferredLocationUpdates(untilTraveled:timeout:)`. When deferral is not possible the
    /// request finishes at once with Core Location's error; an open deferral is replaced (it
    /// finishes, cancelled).
    public mutating func allowDeferredLocationUpdates(untilTraveledMeters distance: Double?, timeoutSeconds: Double?,
                                                      at now: Date) -> [LocationManagerEvent] {
        guard isUpdatingLocation else { return [.didFinishDeferredUpdates(.deferredNotUpdatingLocation)] }
        guard configuration.desiredAccuracy.thresholdMeters == nil else { return [.didFinishDeferredUpdates(.deferredAccuracyTooLow)] }
        guard configuration.distanceFilterMeters == nil else { return [.didFinishDeferredUpdates(.deferredDistanceFiltered)] }
        let events = cancelDeferral()
        deferral = DeferredUpdateBatch(distanceMeters: distance, timeoutSeconds: timeoutSeconds, requestedAt: now)
        return events
    }

    /// `disallowDeferredLocationUpdates()`: the open deferral delivers what it holds and finishes, cancelled.
    public mutating func disallowDeferredLocationUpdates() -> [LocationManagerEvent] { cancelDeferral() }

    /// Whether a deferral is open.
    public var isDeferring: Bool { deferral != nil }

    public mutating func ingest(_ input: Input) -> [LocationManagerEvent] {
        switch input {
        case .location(let location): ingestLocation(location)
        case .tick(let now): ingestTick(now)
        }
    }

    private mutating func ingestLocation(_ location: Location) -> [LocationManagerEvent] {
        var events: [LocationManagerEvent] = []
        if var request = oneShot {
            if let answer = request.ingest(location) { events.append(answer) }
            oneShot = request.isAnswered ? nil : request
        }
        if isMonitoringSignificantLocationChanges, significantChanges.admits(location) {
            events.append(.didUpdateLocations([location]))
        }
        guard isUpdatingLocation else { return events }
        if var detector = autoPause {
            let decision = detector.ingest(location)
            autoPause = detector
            switch decision {
            case .deliver: break
            case .suppress: return events
            case .pause: return events + [.didPauseLocationUpdates(at: location.timestamp)]
            case .resume: events.append(.didResumeLocationUpdates(at: location.timestamp))
            }
        }
        if let passed = gate.ingest(location) { events += deliver(passed) }
        events += stopIfStalled(at: location.timestamp)
        return events
    }

    private mutating func ingestTick(_ now: Date) -> [LocationManagerEvent] {
        var events: [LocationManagerEvent] = []
        if var request = oneShot {
            if let answer = request.tick(now) { events.append(answer) }
            oneShot = request.isAnswered ? nil : request
        }
        guard isUpdatingLocation else { return events }
        if let released = gate.tick(now) { events += deliver(released) }
        if let batch = deferral, batch.isTimedOut(at: now) {
            deferral = nil
            if !batch.locations.isEmpty { events.append(.didUpdateLocations(batch.locations)) }
            events.append(.didFinishDeferredUpdates(nil))
        }
        events += stopIfStalled(at: now)
        return events
    }

    private mutating func deliver(_ location: Location) -> [LocationManagerEvent] {
        guard distanceFilter.admits(location) else { return [] }
        guard var batch = deferral else { return [.didUpdateLocations([location])] }
        if batch.append(location) {
            deferral = nil
            return [.didUpdateLocations(batch.locations), .didFinishDeferredUpdates(nil)]
        }
        deferral = batch
        return []
    }

    private mutating func cancelDeferral() -> [LocationManagerEvent] {
        guard let batch = deferral else { return [] }
        deferral = nil
        let held: [LocationManagerEvent] = batch.locations.isEmpty ? [] : [.didUpdateLocations(batch.locations)]
        return held + [.didFinishDeferredUpdates(.deferredCanceled)]
    }

    private mutating func stopIfStalled(at now: Date) -> [LocationManagerEvent] {
        guard let limit = configuration.stopWhenAccuracyStallsSeconds, gate.stalledSeconds(at: now) >= limit else { return [] }
        return stopUpdatingLocation() + [.didStopUpdatingLocation(at: now)]
    }
}
