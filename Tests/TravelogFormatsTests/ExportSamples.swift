import TravelogTestSupport
import Foundation
import TravelogCore
import TravelogFormats

/// Locations for writer tests.
enum ExportSamples {
    /// Builds a location from literal values; a bad coordinate is a mistake in the test itself.
    static func location(_ latitude: Double, _ longitude: Double, time: String, altitude: Double? = nil,
                         accuracy: Double = -1, verticalAccuracy: Double = -1, speed: Double = -1,
                         course: Double = -1, utcOffsetSeconds: Int? = nil) throws -> Location {
        Location(coordinate: try Coordinate(latitude: latitude, longitude: longitude), altitudeMeters: altitude,
                 horizontalAccuracyMeters: accuracy, verticalAccuracyMeters: verticalAccuracy,
                 speedMetersPerSecond: speed, courseDegrees: course, timestamp: try date(time),
                 utcOffsetSeconds: utcOffsetSeconds)
    }

    /// Parses "2024-03-01T12:00:00Z" or "2024-03-01T12:00:00.123Z".
    static func date(_ text: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try Date.ISO8601FormatStyle().parse(text)
    }

    /// Whole milliseconds since 1970, the resolution the writers keep.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// `count` plausible locations with every kind of value present and absent, crossing the
    /// antimeridian and the equator, one every 1 to 30 s from 2024-03-01 (some on whole seconds).
    static func generated(count: Int, seed: UInt64) -> [Location] {
        var random = SplitMix64(seed: seed)
        var milliseconds: Int64 = 1_709_294_400_000
        var locations: [Location] = []
        for index in 0..<count {
            milliseconds += Int64.random(in: 1...30, using: &random) * 1000
            if index % 3 != 0 { milliseconds += Int64.random(in: 1...999, using: &random) }
            let latitude = Double.random(in: -89.9...89.9, using: &random)
            // A third of the points straddle the 180th meridian.
            let longitude = index % 3 == 0 ? (Bool.random(using: &random) ? 1 : -1) * Double.random(in: 179.9...180, using: &random)
                                           : Double.random(in: -180...180, using: &random)
            guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else { continue }
            let known = { (chance: Int, random: inout SplitMix64) in Int.random(in: 0..<100, using: &random) < chance }
            locations.append(Location(
                coordinate: coordinate,
                altitudeMeters: known(80, &random) ? Double.random(in: -400...8800, using: &random) : nil,
                horizontalAccuracyMeters: known(80, &random) ? Double.random(in: 0...200, using: &random) : -1,
                verticalAccuracyMeters: known(60, &random) ? Double.random(in: 0...100, using: &random) : -1,
                speedMetersPerSecond: known(70, &random) ? Double.random(in: 0...90, using: &random) : -1,
                courseDegrees: known(70, &random) ? Double.random(in: 0..<360, using: &random) : -1,
                timestamp: Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
        }
        return locations
    }

    /// Writes `tracks` (each a name and its segments) with a fresh writer of `format` into memory.
    static func export(_ format: FileFormat, _ tracks: [(name: String?, segments: [[Location]])],
                       document: ExportDocument = ExportDocument()) throws -> String {
        let sink = MemoryByteSink()
        guard let writer = format.makeWriter(sink: sink, document: document) else {
            throw ExportTestFailure.notWritable(format)
        }
        try writer.begin()
        for track in tracks {
            try writer.startTrack(named: track.name)
            for segment in track.segments {
                try writer.startSegment()
                try writer.write(segment)
            }
        }
        try writer.finish()
        return sink.text
    }
}

enum ExportTestFailure: Error {
    case notWritable(FileFormat)
    case toolFailed(String)
    case unreadable(String)
}
