import Foundation
import TravelogCore

/// What a location manager tells its client: the calls of `CLLocationManagerDelegate`.
public enum LocationManagerEvent: Hashable, Sendable {
    /// `locationManager(_:didUpdateLocations:)`: one or more fixes, oldest first (more than one
    /// only at the end of a deferral).
    case didUpdateLocations([Location])
    /// `locationManagerDidPauseLocationUpdates(_:)`: the device stopped moving.
    case didPauseLocationUpdates(at: Date)
    /// `locationManagerDidResumeLocationUpdates(_:)`: it moved again.
    case didResumeLocationUpdates(at: Date)
    /// `locationManager(_:didFinishDeferredUpdatesWithError:)`: once per deferral request, with
    /// `nil` when the distance or the timeout was reached.
    case didFinishDeferredUpdates(LocationManagerError?)
    /// `locationManager(_:didFailWithError:)`: a one-shot request found nothing.
    case didFail(LocationManagerError)
    /// Updates stopped on their own because accuracy did not improve (to save power).
    case didStopUpdatingLocation(at: Date)
}
