/// The errors a location manager reports: Core Location's `CLError` codes that apply here.
public enum LocationManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `CLError.locationUnknown`: a one-shot request ended without any fix.
    case locationUnknown
    /// `CLError.deferredNotUpdatingLocation`: deferral asked while updates are not running.
    case deferredNotUpdatingLocation
    /// `CLError.deferredAccuracyTooLow`: deferral needs the best (or best-for-navigation) accuracy.
    case deferredAccuracyTooLow
    /// `CLError.deferredDistanceFiltered`: deferral needs no distance filter.
    case deferredDistanceFiltered
    /// `CLError.deferredCanceled`: the deferral was cancelled, replaced, or updates stopped.
    case deferredCanceled

    public var description: String {
        switch self {
        case .locationUnknown: "no location could be determined before the request timed out"
        case .deferredNotUpdatingLocation: "deferred updates need location updates to be running"
        case .deferredAccuracyTooLow: "deferred updates need the best or best-for-navigation accuracy"
        case .deferredDistanceFiltered: "deferred updates need no distance filter"
        case .deferredCanceled: "the deferred updates were cancelled"
        }
    }
}
