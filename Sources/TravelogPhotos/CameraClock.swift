import Foundation

/// Which offset from UTC the camera's clock kept, so a photo's wall-clock time becomes an instant.
public enum CameraClock: Hashable, Sendable {
    /// A fixed offset (`--camera-offset ±HH:MM`), seconds east of UTC.
    case offset(seconds: Int)
    /// A zone's offset at the photo's time, daylight saving included (`--camera-zone Europe/Helsinki`).
    case zone(TimeZone)
    /// The photo's own `OffsetTimeOriginal`, else the zone where the history says the person was.
    case automatic

    /// Where an instant's offset came from.
    public enum Source: String, Hashable, Sendable {
        case cameraOffset = "camera-offset"
        case cameraZone = "camera-zone"
        case photo = "OffsetTimeOriginal"
        case history = "history-zone"
    }

    /// Parses `±HH:MM` (or `±HHMM`, `Z`) into seconds east of UTC.
    public static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "+00:00" || text == "-00:00" { return 0 }
        let compact = text.count == 5 ? String(text.prefix(3)) + ":" + String(text.suffix(2)) : text
        return ExifInterpreter.offsetSeconds(compact)
    }

    /// The photo's instant and where its offset came from, or `nil` when nothing says.
    /// - Parameter zoneNear: the zone where the history says the person was near an instant (the
    ///   fix nearest to it within a day), `nil` when the history has nothing there.
    /// - Complexity: at most three calls of `zoneNear`.
    public func instant(of capture: PhotoCaptureTime, zoneNear: (Date) async throws -> TimeZone?) async rethrows
        -> (instant: Date, source: Source)? {
        switch self {
        case .offset(let seconds):
            return (capture.instant(utcOffsetSeconds: seconds), .cameraOffset)
        case .zone(let zone):
            return (Self.instant(of: capture, in: zone), .cameraZone)
        case .automatic:
            if let instant = capture.instant { return (instant, .photo) }
            // The clock read as UTC is within 14 hours of the instant: the zone there gives a first
            // instant, and the zone at that instant (the person may have crossed a border) the answer.
            let guess = Date(timeIntervalSince1970: capture.clockSecondsSince1970)
            guard let first = try await zoneNear(guess) else { return nil }
            let firstInstant = Self.instant(of: capture, in: first)
            guard let second = try await zoneNear(firstInstant), second != first else { return (firstInstant, .history) }
            return (Self.instant(of: capture, in: second), .history)
        }
    }

    /// The instant a wall-clock time names in a zone (the earlier one in the hour repeated when clocks go back).
    static func instant(of capture: PhotoCaptureTime, in zone: TimeZone) -> Date {
        let asUTC = Date(timeIntervalSince1970: capture.clockSecondsSince1970)
        let offset = zone.secondsFromGMT(for: asUTC.addingTimeInterval(-Double(zone.secondsFromGMT(for: asUTC))))
        return capture.instant(utcOffsetSeconds: offset)
    }
}
