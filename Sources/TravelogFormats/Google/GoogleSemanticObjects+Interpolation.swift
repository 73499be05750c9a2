import Foundation
import TravelogCore

extension GoogleSemanticObjects {
    /// Gives the untimed points of an activity's outline (start location, `waypointPath`, end
    /// location) times spread between the segment's start and end in proportion to the geodesic
    /// distance along the outline: the points are Google's own reconstruction of the trip, and
    /// without a time they could not be part of the history at all. Only used when the segment has
    /// no `simplifiedRawPath` (which carries real times); when either end time is missing, or a point
    /// has no valid coordinate, the outline is left as it is.
    ///
    /// The estimate keeps the offset the start time was written with.
    static func interpolateTimes(of outline: inout [TrackPoint], start: GoogleTime.Reading, end: GoogleTime.Reading) {
        guard case .valid(let first) = start, case .valid(let last) = end, last.date > first.date,
              outline.count >= 2 else { return }
        var coordinates: [Coordinate] = []
        for (point, _, _) in outline {
            guard let latitude = point.latitude, let longitude = point.longitude,
                  let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else { return }
            coordinates.append(coordinate)
        }
        var cumulative = [0.0]
        for (from, to) in zip(coordinates, coordinates.dropFirst()) {
            cumulative.append(cumulative[cumulative.count - 1] + from.distanceMeters(to: to))
        }
        let total = cumulative[cumulative.count - 1]
        let duration = last.date.timeIntervalSince(first.date)
        for index in outline.indices where outline[index].0.time == .absent {
            let fraction = total > 0 ? cumulative[index] / total : Double(index) / Double(outline.count - 1)
            let date = first.date.addingTimeInterval(duration * fraction)
            outline[index].0.time = .valid(GoogleTime.Instant(date: date, utcOffsetSeconds: first.utcOffsetSeconds))
        }
    }
}
