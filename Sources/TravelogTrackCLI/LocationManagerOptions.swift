import ArgumentParser
import TravelogTracking

/// The location manager's settings on the command line (each overrides the config file).
/// Unset, they are Core Location's defaults: best accuracy, no distance filter, so every fix is kept.
struct LocationManagerOptions: ParsableArguments {
    @Option(name: .customLong("desired-accuracy"), help: ArgumentHelp(
        "best-for-navigation, best, ten-meters, hundred-meters, kilometer or three-kilometers (default best).", valueName: "level"))
    var desiredAccuracy: DesiredAccuracy?

    @Option(name: .customLong("distance-filter"), help: ArgumentHelp("Keep a fix only this far from the last kept one, in metres (default none).", valueName: "meters"))
    var distanceFilterMeters: Double?

    @Option(name: .customLong("activity-type"), help: ArgumentHelp("other, automotive, fitness, other-navigation or airborne: tunes auto-pause.", valueName: "type"))
    var activityType: ActivityType?

    @Flag(name: .customLong("pause-automatically"), help: "Pause updates while not moving (resume on movement).")
    var pausesAutomatically = false

    @Option(name: .customLong("stop-when-accuracy-stalls"), help: ArgumentHelp("Stop when fixes miss the desired accuracy without improving for this long.", valueName: "seconds"))
    var stopWhenAccuracyStallsSeconds: Double?

    @Option(name: .customLong("heading-filter"), help: ArgumentHelp("Report a heading change only from this many degrees (default 1).", valueName: "degrees"))
    var headingFilterDegrees: Double?

    @Flag(name: .customLong("significant-changes"), help: "Use the significant-change service (about 500 m, at most one per 5 minutes) instead.")
    var significantChanges = false

    @Option(name: .customLong("defer-meters"), help: ArgumentHelp("Deliver fixes in deferred batches after this distance.", valueName: "meters"))
    var deferMeters: Double?

    @Option(name: .customLong("defer-seconds"), help: ArgumentHelp("Deliver fixes in deferred batches after this time.", valueName: "seconds"))
    var deferSeconds: Double?

    func validate() throws {
        for (name, value) in [("--distance-filter", distanceFilterMeters), ("--stop-when-accuracy-stalls", stopWhenAccuracyStallsSeconds),
                              ("--heading-filter", headingFilterDegrees), ("--defer-meters", deferMeters), ("--defer-seconds", deferSeconds)] {
            if let value, !(value.isFinite && value >= 0) { throw ValidationError("\(name) must be a number ≥ 0") }
        }
    }
}

extension DesiredAccuracy: ExpressibleByArgument {}
extension ActivityType: ExpressibleByArgument {}
