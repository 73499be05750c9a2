import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GPXReader: block boundaries and Travelog's own GPX")
struct GPXChunkingTests {
    /// The samples whole, and each cut in the middle (an error at the same place every time).
    static let documents: [[UInt8]] = GPXSamples.all.flatMap { text -> [[UInt8]] in
        let bytes = Array(text.utf8)
        return [bytes, Array(bytes[..<(bytes.count / 2)])]
    }

    @Test("tiny source chunks and a tiny XML buffer give identical records, positions and errors",
          arguments: 0..<documents.count)
    func chunks(index: Int) {
        let bytes = Self.documents[index]
        let whole = ReaderOutcome.read(.gpx, bytes)
        for chunk in [1, 2, 3, 7, 64] {
            #expect(ReaderOutcome.read(.gpx, bytes, chunkBytes: chunk) == whole, "chunks of \(chunk) bytes")
        }
        for capacity in [16, 31, 100] {
            #expect(ReaderOutcome.read(.gpx, bytes, chunkBytes: 5, bufferCapacityBytes: capacity) == whole,
                    "buffer of \(capacity) bytes")
        }
    }

    @Test("what the GPX writer writes reads back: segments, positions, elevations, speeds, courses and times")
    func roundTrip() throws {
        let locations = ExportSamples.generated(count: 600, seed: 0x6770_7872)
        let segments = [Array(locations[..<250]), Array(locations[250..<251]), Array(locations[251...])]
        let text = try ExportSamples.export(.gpx, [(name: "a", segments: Array(segments[..<2])), (name: nil, segments: [segments[2]])])
        let outcome = ReaderOutcome.read(.gpx, text)
        #expect(outcome.error == nil)
        #expect(outcome.rejections.isEmpty)
        let expectedKinds = Array(repeating: FormatPoint.Kind.track(track: 0, segment: 0), count: 250)
            + [.track(track: 0, segment: 1)] + Array(repeating: .track(track: 1, segment: 0), count: locations.count - 251)
        #expect(outcome.kinds == expectedKinds)
        let read = outcome.locations
        try #require(read.count == locations.count)
        for (written, back) in zip(locations, read) {
            // The writer keeps 7 decimals of degrees, 3 of metres, m/s and degrees, and milliseconds.
            #expect(abs(written.coordinate.latitude - back.coordinate.latitude) <= 5e-8)
            #expect(abs(Coordinate.normalizedLongitude(written.coordinate.longitude - back.coordinate.longitude)) <= 5e-8)
            #expect((written.altitudeMeters == nil) == (back.altitudeMeters == nil))
            #expect(abs((written.altitudeMeters ?? 0) - (back.altitudeMeters ?? 0)) <= 5e-4)
            #expect(abs(written.speedMetersPerSecond - back.speedMetersPerSecond) <= 5e-4)
            #expect((written.courseIfKnown == nil) == (back.courseIfKnown == nil))
            #expect(abs((written.courseIfKnown ?? 0) - (back.courseIfKnown ?? 0)) <= 5e-4)
            #expect(ExportSamples.milliseconds(written.timestamp) == ExportSamples.milliseconds(back.timestamp))
        }
    }
}
