import Foundation
import TravelogCore

/// Where the history places a photo taken at an instant, or why it cannot.
public enum PhotoPlacement: Hashable, Sendable {
    /// On the geodesic between the fixes before and after, at the photo's share of the time between them.
    case interpolated(coordinate: Coordinate, accuracyMeters: Double, before: Date, after: Date)
    /// Inside a journal visit: its centre, with its radius as the accuracy.
    case visit(coordinate: Coordinate, accuracyMeters: Double, arrival: Date, departure: Date?)
    case unplaced(PhotoPlacementRefusal)

    public var coordinate: Coordinate? {
        switch self {
        case .interpolated(let coordinate, _, _, _), .visit(let coordinate, _, _, _): coordinate
        case .unplaced: nil
        }
    }

    public var accuracyMeters: Double? {
        switch self {
        case .interpolated(_, let accuracy, _, _), .visit(_, let accuracy, _, _): accuracy
        case .unplaced: nil
        }
    }
}

/// Why the history cannot place a photo.
public enum PhotoPlacementRefusal: Hashable, Sendable, CustomStringConvertible {
    /// The photo has no `DateTimeOriginal`.
    case noCaptureTime
    /// No offset from UTC for the camera's clock: none on the command line, none in the photo, and no
    /// fix within a day of its clock time to take the zone from.
    case noCameraOffset
    /// No fix at or before the photo's time (with how many seconds after it the next one is, when any).
    case noFixBefore(nextFixAfterSeconds: Double?)
    /// No fix at or after the photo's time (with how many seconds before it the last one is, when any).
    case noFixAfter(lastFixBeforeSeconds: Double?)
    /// The fixes around the photo are further apart than the largest gap allowed.
    case gapTooLong(before: Date, after: Date, maxGapSeconds: Double)
    /// The history places the photo inside one of the person's privacy zones (named): the position
    /// is neither written nor shown.
    case insidePrivacyZone(name: String)

    public var description: String {
        switch self {
        case .noCaptureTime: "the photo has no capture time (DateTimeOriginal)"
        case .noCameraOffset:
            "the camera's time zone is unknown: no --camera-offset or --camera-zone, no OffsetTimeOriginal, and no fix within a day to take the zone from"
        case .noFixBefore(let next):
            "no fix before the photo's time" + (next.map { " (the next is \(Self.seconds($0)) after it)" } ?? "")
        case .noFixAfter(let last):
            "no fix after the photo's time" + (last.map { " (the last is \(Self.seconds($0)) before it)" } ?? "")
        case .gapTooLong(let before, let after, let maxGap):
            "the fixes around it are \(Self.seconds(after.timeIntervalSince(before))) apart, more than --max-gap \(Self.seconds(maxGap))"
        case .insidePrivacyZone(let name): "inside privacy zone \(name)"
        }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.0f s", abs(value)) }
}
