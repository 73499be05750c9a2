import Foundation
import TravelogCore
import TravelogTracking

/// The tracker's state machines together (location manager, course, heading) and what their
/// events do: kept fixes go to the queue and the GPX file, pauses and headings to the log.
struct TrackerState {
    private var manager: LocationManager
    private var course = CourseEstimator()
    private var headings: HeadingProcessor
    private let settings: TrackerSettings
    /// The last fix's time and the wall-clock time it came: ticks are turned into the fixes'
    /// clock, so a log replayed fast keeps its own timing.
    private var lastFix: (fixTime: Date, wallTime: Date)?
    private var keptCount = 0

    init(settings: TrackerSettings) {
        self.settings = settings
        manager = LocationManager(configuration: settings.manager)
        if settings.significantChangesOnly {
            manager.setMonitorsSignificantLocationChanges(true)
        } else {
            manager.startUpdatingLocation()
        }
        headings = HeadingProcessor(filterDegrees: settings.manager.headingFilterDegrees, model: settings.magneticModel)
    }

    /// Handles one event. - Returns: whether the source has ended.
    mutating func handle(_ event: SourceEvent, queue: TrackerQueue, recorder: GPXRecorder?,
                         log: @Sendable (String) -> Void) throws -> Bool {
        var output: [LocationManagerEvent] = []
        switch event {
        case .location(let raw):
            let location = course.ingest(raw)
            _ = headings.ingest(.location(location))
            lastFix = (location.timestamp, Date())
            if manager.isUpdatingLocation, !manager.isDeferring, settings.deferMeters != nil || settings.deferSeconds != nil {
                output += manager.allowDeferredLocationUpdates(untilTraveledMeters: settings.deferMeters,
                                                               timeoutSeconds: settings.deferSeconds, at: location.timestamp)
            }
            output += manager.ingest(.location(location))
        case .heading(let input):
            if let heading = headings.ingest(input) {
                let magnetic = heading.magneticHeadingDegrees >= 0 ? String(format: ", magnetic %.1f°", heading.magneticHeadingDegrees) : ""
                try queue.recordHeading(String(format: "true %.1f°", heading.trueHeadingDegrees) + magnetic)
            }
        case .tick(let now):
            guard let last = lastFix else { return false }
            output += manager.ingest(.tick(last.fixTime.addingTimeInterval(now.timeIntervalSince(last.wallTime))))
        case .state(let text):
            log(text)
            try queue.recordSourceState(text)
        case .ended:
            output += manager.disallowDeferredLocationUpdates()
            try apply(output, queue: queue, recorder: recorder, log: log)
            log("the log has ended: \(keptCount) fixes kept")
            return true
        }
        try apply(output, queue: queue, recorder: recorder, log: log)
        return false
    }

    private mutating func apply(_ events: [LocationManagerEvent], queue: TrackerQueue, recorder: GPXRecorder?,
                                log: @Sendable (String) -> Void) throws {
        for event in events {
            switch event {
            case .didUpdateLocations(let locations):
                let dropped = try queue.enqueue(try locations.map { ($0.timestamp, try OverlandFeature.encode($0)) })
                if dropped > 0 {
                    log("warning: the queue is full (\(queue.capacity) fixes): dropped the \(dropped) oldest")
                }
                try recorder?.write(locations)
                keptCount += locations.count
            case .didPauseLocationUpdates(let date):
                log("updates paused: not moving since \(date)")
            case .didResumeLocationUpdates(let date):
                log("updates resumed: moving at \(date)")
            case .didFinishDeferredUpdates(let error?):
                log("deferred updates: \(error)")
            case .didFinishDeferredUpdates(nil):
                break
            case .didFail(let error):
                log("location request failed: \(error)")
            case .didStopUpdatingLocation(let date):
                log("updates stopped at \(date): accuracy did not improve")
            }
        }
    }
}
