import TravelogCore

/// How accurate the fixes a client wants are: Core Location's `desiredAccuracy` constants.
///
/// A fix whose horizontal accuracy is worse than the threshold is held back for a while, in case
/// a better one comes (see `AccuracyGate`). The two "best" levels have no threshold: every fix is
/// the best the receiver has.
public enum DesiredAccuracy: String, CaseIterable, Hashable, Sendable, Codable {
    /// `kCLLocationAccuracyBestForNavigation`.
    case bestForNavigation = "best-for-navigation"
    /// `kCLLocationAccuracyBest`, Core Location's default.
    case best
    /// `kCLLocationAccuracyNearestTenMeters`.
    case nearestTenMeters = "ten-meters"
    /// `kCLLocationAccuracyHundredMeters`.
    case hundredMeters = "hundred-meters"
    /// `kCLLocationAccuracyKilometer`.
    case kilometer
    /// `kCLLocationAccuracyThreeKilometers`.
    case threeKilometers = "three-kilometers"

    /// The worst horizontal accuracy that meets the level, in metres; `nil` for the best levels.
    public var thresholdMeters: Double? {
        switch self {
        case .bestForNavigation, .best: nil
        case .nearestTenMeters: 10
        case .hundredMeters: 100
        case .kilometer: 1_000
        case .threeKilometers: 3_000
        }
    }

    /// The accuracy at which a one-shot request answers at once, in metres. The best levels have
    /// no threshold of their own, so they take a good GNSS fix (5 m) at once and otherwise wait
    /// for the best fix until the request's timeout.
    public var oneShotTargetMeters: Double { thresholdMeters ?? 5 }

    /// Whether a fix meets the level (a fix with an invalid accuracy meets only the best levels).
    public func isMet(by location: Location) -> Bool {
        guard let threshold = thresholdMeters else { return true }
        guard let accuracy = location.horizontalAccuracyIfValid else { return false }
        return accuracy <= threshold
    }
}
