import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport
@testable import TravelogPhotos

@Suite("reading a photo's EXIF")
struct PhotoMetadataReaderTests {
    typealias B = ExifJPEGBuilder

    static func southWestPhoto() -> ExifJPEGBuilder {
        var builder = ExifJPEGBuilder()
        builder.ifd0 = [(B.make, .ascii("Travelog ")), (B.model, .ascii("Test Camera")), (B.orientation, .short(6))]
        builder.exif = [(B.dateTimeOriginal, .ascii("2024:02:29 23:59:58")), (B.subSecTimeOriginal, .ascii("25")),
                        (B.offsetTimeOriginal, .ascii("-03:30"))]
        builder.gps = [(B.latitudeRef, .ascii("S")), (B.latitude, B.dms(33.8568)), (B.longitudeRef, .ascii("W")),
                       (B.longitude, B.dms(70.6483)), (B.altitudeRef, .byte(1)), (B.altitude, .rationals([(125, 10)])),
                       (B.imgDirectionRef, .ascii("M")), (B.imgDirection, .rationals([(2705, 10)])),
                       (B.hPositioningError, .rationals([(7, 2)])),
                       (B.dateStamp, .ascii("2024:03:01")), (B.timeStamp, .rationals([(3, 1), (29, 1), (585, 10)]))]
        return builder
    }

    @Test("every field of a photo south and west, below sea level, with sub-seconds and a negative offset")
    func everyField() throws {
        let data = Self.southWestPhoto().jpeg()
        let metadata = try PhotoMetadataReader.read(data: data, path: "south-west.jpg")
        #expect(metadata.mimeType == "image/jpeg")
        #expect(metadata.pixelWidth == 64 && metadata.pixelHeight == 48)
        #expect(metadata.orientation == 6)
        #expect(metadata.cameraMake == "Travelog" && metadata.cameraModel == "Test Camera")
        let capture = try #require(metadata.captureTime)
        #expect(capture.clock == (try CivilDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 58, nanosecond: 250_000_000)))
        #expect(capture.utcOffsetSeconds == -12_600)
        // 23:59:58.25 at -03:30 is 03:29:58.25 UTC the next day.
        #expect(capture.instant == Date(timeIntervalSince1970: 1_709_263_798.25))
        #expect(metadata.gpsTime == Date(timeIntervalSince1970: 1_709_263_798.5))
        let position = try #require(metadata.position)
        #expect(abs(position.coordinate.latitude + 33.8568) < 1e-7)
        #expect(abs(position.coordinate.longitude + 70.6483) < 1e-7)
        #expect(position.altitudeMeters == -12.5)
        #expect(position.directionDegrees == 270.5 && position.directionIsMagnetic == true)
        #expect(position.horizontalErrorMeters == 3.5)
        #expect(metadata.ignoredTags.isEmpty)
        #expect(metadata.contentDigest.count == 64 && metadata.byteCount == data.count)
    }

    @Test("impossible values are refused and named, the rest is kept")
    func impossibleValues() throws {
        var builder = ExifJPEGBuilder()
        builder.ifd0 = [(B.orientation, .short(9))]
        builder.exif = [(B.dateTimeOriginal, .ascii("2024:02:30 12:00:00")), (B.offsetTimeOriginal, .ascii("+25:00"))]
        builder.gps = [(B.latitudeRef, .ascii("N")), (B.latitude, .rationals([(91, 1), (0, 1), (0, 1)])),
                       (B.longitudeRef, .ascii("E")), (B.longitude, .rationals([(10, 1), (0, 0), (0, 1)]))]
        let metadata = try PhotoMetadataReader.read(data: builder.jpeg(), path: "bad.jpg")
        #expect(metadata.orientation == nil && metadata.captureTime == nil && metadata.position == nil)
        let keys = Set(metadata.ignoredTags.map(\.key))
        #expect(keys.contains("Exif.Image.Orientation"))
        #expect(keys.contains("Exif.Photo.DateTimeOriginal"))
        #expect(keys.contains("Exif.GPSInfo.GPSLatitude"))
        #expect(metadata.pixelWidth == 64)
    }

    @Test("a camera with no fix writes 0/0: no position, and it says so")
    func zeroPosition() throws {
        var builder = ExifJPEGBuilder()
        builder.gps = [(B.latitudeRef, .ascii("N")), (B.latitude, .rationals([(0, 1), (0, 1), (0, 1)])),
                       (B.longitudeRef, .ascii("E")), (B.longitude, .rationals([(0, 1), (0, 1), (0, 1)]))]
        let metadata = try PhotoMetadataReader.read(data: builder.jpeg(), path: "nofix.jpg")
        #expect(metadata.position == nil)
        #expect(metadata.ignoredTags.map(\.key) == ["Exif.GPSInfo.GPSLatitude"])
    }

    @Test("a camera without a zone writes blank OffsetTimeOriginal: no offset, nothing refused")
    func blankOffset() throws {
        var builder = ExifJPEGBuilder()
        builder.exif = [(B.dateTimeOriginal, .ascii("2020:01:01 00:00:00")), (B.offsetTimeOriginal, .ascii("   :  "))]
        let metadata = try PhotoMetadataReader.read(data: builder.jpeg(), path: "nozone.jpg")
        #expect(metadata.captureTime?.utcOffsetSeconds == nil)
        #expect(metadata.captureTime?.instant == nil)
        #expect(metadata.ignoredTags.isEmpty)
    }

    @Test("an empty file, text, a device, a folder and a file that does not exist are precise errors naming the file")
    func notPhotos() throws {
        #expect(throws: PhotoMetadataError.empty(path: "empty.jpg")) { try PhotoMetadataReader.read(data: Data(), path: "empty.jpg") }
        #expect(throws: PhotoMetadataError.notAnImage(path: "notes.txt")) {
            try PhotoMetadataReader.read(data: Data("a shopping list\n".utf8), path: "notes.txt")
        }
        #expect(throws: PhotoMetadataError.unreadable(path: "/dev/zero", reason: "not a regular file")) {
            try PhotoMetadataReader.read(path: "/dev/zero")
        }
        #expect(throws: PhotoMetadataError.unreadable(path: "/tmp", reason: "a folder")) { try PhotoMetadataReader.read(path: "/tmp") }
        do {
            _ = try PhotoMetadataReader.read(path: "/nonexistent/photo.jpg")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.path == "/nonexistent/photo.jpg")
            guard case .unreadable = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("every truncation of a photo is read or refused with an error naming it, never a crash")
    func truncations() throws {
        let data = Self.southWestPhoto().jpeg()
        var refused = 0
        for length in 1..<data.count {
            do {
                _ = try PhotoMetadataReader.read(data: data.prefix(length), path: "cut-\(length).jpg")
            } catch {
                refused += 1
                #expect(error.path == "cut-\(length).jpg")
            }
        }
        #expect(refused > 0)
    }

    @Test("every single-byte change of a photo's EXIF is read or refused, never a crash")
    func mutations() throws {
        let data = Self.southWestPhoto().jpeg()
        var random = SplitMix64(seed: 32)
        for index in 4..<min(data.count, 400) {
            var mutated = data
            mutated[index] ^= UInt8.random(in: 1...255, using: &random)
            do {
                let metadata = try PhotoMetadataReader.read(data: mutated, path: "m.jpg")
                if let position = metadata.position {
                    #expect((-90...90).contains(position.coordinate.latitude))
                }
            } catch {
                #expect(error.path == "m.jpg")
            }
        }
    }

    @Test("offsets as cameras write them", arguments: [("+08:00", 28_800), ("-03:30", -12_600), ("+00:00", 0), ("+14:00", 50_400)])
    func offsets(text: String, seconds: Int) {
        #expect(ExifInterpreter.offsetSeconds(text) == seconds)
    }

    @Test("not offsets", arguments: ["", "08:00", "+8:00", "+15:00", "+08:60", "+0800", "Z"])
    func notOffsets(text: String) {
        #expect(ExifInterpreter.offsetSeconds(text) == nil)
    }
}
