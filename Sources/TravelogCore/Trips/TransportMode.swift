import Foundation

/// How someone travels, as Core Motion's `CMMotionActivity` names it (plus airborne, and unknown
/// when a trip's fixes are too few to tell).
public enum TransportMode: String, Hashable, Sendable, CaseIterable, Comparable {
    case unknown, stationary, walking, running, cycling, automotive, airborne

    /// Modes order by their typical speed.
    public static func < (lhs: TransportMode, rhs: TransportMode) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .unknown: -1
        case .stationary: 0
        case .walking: 1
        case .running: 2
        case .cycling: 3
        case .automotive: 4
        case .airborne: 5
        }
    }

    /// Whether the phone's own report of this mode is believable at a measured speed (m/s): the
    /// range is wider than the speed bands, since the phone knows what speed alone cannot tell
    /// (a slow cyclist from a runner, a car in a jam from a walker).
    public func isPlausible(atSpeedMetersPerSecond speed: Double) -> Bool {
        switch self {
        case .unknown: false
        case .stationary: speed < 1.0
        case .walking: speed < 3.0
        case .running: speed >= 1.5 && speed < 7.0
        case .cycling: speed >= 1.0 && speed < 16.0
        case .automotive: speed < 100.0
        case .airborne: speed >= 30.0
        }
    }
}

/// One report of the phone's own motion coprocessor (`CMMotionActivity`): from `startDate` on,
/// the device moved in `mode` (`nil`: unknown) with a confidence.
public struct MotionActivity: Hashable, Sendable {
    /// How sure the phone is.
    public enum Confidence: Int, Hashable, Sendable, Comparable {
        case low, medium, high
        public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var startDate: Date
    /// The mode reported, `nil` when the phone could not tell.
    public var mode: TransportMode?
    public var confidence: Confidence

    public init(startDate: Date, mode: TransportMode?, confidence: Confidence) {
        self.startDate = startDate
        self.mode = mode
        self.confidence = confidence
    }
}
