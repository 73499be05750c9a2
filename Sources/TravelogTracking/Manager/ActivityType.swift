/// What the device is used for: Core Location's `CLActivityType`, which tunes auto-pause.
public enum ActivityType: String, CaseIterable, Hashable, Sendable, Codable {
    /// `CLActivityType.other`, the default.
    case other
    /// `CLActivityType.automotiveNavigation`: a vehicle on roads.
    case automotiveNavigation = "automotive"
    /// `CLActivityType.fitness`: walking, running, cycling.
    case fitness
    /// `CLActivityType.otherNavigation`: boats, trains, off-road vehicles.
    case otherNavigation = "other-navigation"
    /// `CLActivityType.airborne`: aircraft.
    case airborne

    /// When the device counts as not moving: it stays within `stationaryRadiusMeters` of where it
    /// stopped for `pauseAfterSeconds`. Apple documents only the direction of the tuning (a car
    /// stopped at a light is not parked, a walker pauses sooner than a boat drifting at anchor);
    /// these values are Travelog's, chosen so that traffic lights and tacking do not pause.
    /// `nil` for `airborne`: an aircraft holding or a glider circling is still flying.
    public var autoPause: AutoPauseTuning? {
        switch self {
        case .other: AutoPauseTuning(stationaryRadiusMeters: 30, pauseAfterSeconds: 600)
        case .automotiveNavigation: AutoPauseTuning(stationaryRadiusMeters: 50, pauseAfterSeconds: 300)
        case .fitness: AutoPauseTuning(stationaryRadiusMeters: 20, pauseAfterSeconds: 600)
        case .otherNavigation: AutoPauseTuning(stationaryRadiusMeters: 60, pauseAfterSeconds: 900)
        case .airborne: nil
        }
    }
}

/// The auto-pause thresholds of an activity type.
public struct AutoPauseTuning: Hashable, Sendable {
    /// How far from where it stopped the device may wander and still count as not moving, in
    /// metres (a fix's own accuracy widens it).
    public var stationaryRadiusMeters: Double
    /// How long the device must not move before updates pause, in seconds.
    public var pauseAfterSeconds: Double

    public init(stationaryRadiusMeters: Double, pauseAfterSeconds: Double) {
        self.stationaryRadiusMeters = stationaryRadiusMeters
        self.pauseAfterSeconds = pauseAfterSeconds
    }
}
