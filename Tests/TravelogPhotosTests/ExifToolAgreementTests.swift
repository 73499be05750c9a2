import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport
@testable import TravelogPhotos

/// Real photos from other projects' test images (`make photo-samples`: Pillow's and pillow-heif's
/// sdists) read by Travelog and by ExifTool (`exiftool -json -n -G1`, Debian's
/// libimage-exiftool-perl): every field ExifTool reports, Travelog reports the same.
@Suite("photos' metadata agrees with ExifTool on real test images")
struct ExifToolAgreementTests {
    static let folder = BuildData.path("photos")

    /// Files ExifTool reads a capture time from where Travelog reads nothing, each with why: the test
    /// fails when the list changes, either way. (`empty_icc.heic`, whose Exif item Exiv2 0.27.6 misses,
    /// is read through `HEIFExifItem`.)
    static let knownMisses: [String: String] = [
        // ExifTool reads the Exif item and warns of a truncated 'mdat'; Exiv2 refuses the file.
        "corrupted.hif": "Exiv2 0.27.6: corrupted image metadata",
    ]

    static func photoFiles() throws -> [String] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder)
        return names.map { folder + "/" + $0 }.filter { !$0.hasSuffix(".partial") && !isDirectory($0) }.sorted()
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    static func exifTool(_ paths: [String]) throws -> [String: [String: Any]] {
        let data = Data(try ChildProcess.run("/usr/bin/exiftool", ["-json", "-n", "-G1", "-q", "-q"] + paths).output)
        let records = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        var byPath: [String: [String: Any]] = [:]
        for record in records {
            if let path = record["SourceFile"] as? String { byPath[path] = record }
        }
        return byPath
    }

    @Test("every field ExifTool reports is the same in Travelog")
    func agreesWithExifTool() throws {
        guard FileManager.default.fileExists(atPath: Self.folder) else {
            Issue.record("\(Self.folder) is absent: run `make photo-samples` (`make test` does) to check photos against ExifTool")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else {
            Issue.record("exiftool is not installed: `apt-get install libimage-exiftool-perl` (`make test` does)")
            return
        }
        let paths = try Self.photoFiles()
        #expect(paths.count >= 39, "the sample set has \(paths.count) files")
        let reference = try Self.exifTool(paths)
        var timesCompared = 0, positionsCompared = 0, sizesCompared = 0, misses: [String: String] = [:]
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let expected = reference[path] ?? [:]
            let metadata: PhotoMetadata
            do {
                metadata = try PhotoMetadataReader.read(path: path)
            } catch {
                #expect(error.path == path)
                #expect(error.description.hasPrefix(path + ": "))
                if expected["ExifIFD:DateTimeOriginal"] != nil { misses[name] = error.description }
                continue
            }
            if let text = expected["ExifIFD:DateTimeOriginal"] as? String {
                if let time = metadata.captureTime {
                    timesCompared += 1
                    let clock = time.clock
                    let written = String(format: "%04d:%02d:%02d %02d:%02d:%02d", clock.year, clock.month, clock.day,
                                         clock.hour, clock.minute, clock.second)
                    #expect(written == String(text.prefix(19)), "\(name): DateTimeOriginal")
                    if let subSeconds = expected["ExifIFD:SubSecTimeOriginal"] {
                        let digits = "\(subSeconds)"
                        let nanoseconds = Int(digits).map { $0 * Int(pow(10, Double(9 - digits.count))) }
                        #expect(clock.nanosecond == nanoseconds, "\(name): SubSecTimeOriginal \(digits)")
                    } else {
                        #expect(clock.nanosecond == 0, "\(name)")
                    }
                    let offset = (expected["ExifIFD:OffsetTimeOriginal"] as? String).flatMap(ExifInterpreter.offsetSeconds)
                    #expect(time.utcOffsetSeconds == offset, "\(name): OffsetTimeOriginal")
                } else {
                    // Exiv2 found no EXIF at all here (see knownMisses): nothing else to compare.
                    misses[name] = "no capture time"
                    #expect(metadata.position == nil && metadata.orientation == nil, "\(name)")
                    continue
                }
            } else {
                #expect(metadata.captureTime == nil, "\(name): ExifTool reads no DateTimeOriginal")
            }
            if let latitude = expected["Composite:GPSLatitude"] as? Double, let longitude = expected["Composite:GPSLongitude"] as? Double,
               Coordinate(validLatitude: latitude, longitude: longitude) != nil, latitude != 0 || longitude != 0 {
                guard let position = metadata.position else {
                    Issue.record("\(name): ExifTool has \(latitude), \(longitude); Travelog no position")
                    continue
                }
                positionsCompared += 1
                #expect(abs(position.coordinate.latitude - latitude) < 1e-6, "\(name): latitude")
                #expect(abs(position.coordinate.longitude - longitude) < 1e-6, "\(name): longitude")
                if let altitude = expected["Composite:GPSAltitude"] as? Double {
                    #expect(abs((position.altitudeMeters ?? .nan) - altitude) < 1e-6, "\(name): altitude")
                }
                if let direction = expected["GPS:GPSImgDirection"] as? Double {
                    #expect(abs((position.directionDegrees ?? .nan) - direction) < 1e-6, "\(name): direction")
                }
                if let error = expected["GPS:GPSHPositioningError"] as? Double {
                    #expect(position.horizontalErrorMeters == error, "\(name): GPSHPositioningError")
                }
            } else {
                #expect(metadata.position == nil, "\(name): ExifTool has no usable position")
                if let latitude = expected["GPS:GPSLatitude"] as? Double, latitude != 0 {
                    #expect(metadata.ignoredTags.contains { $0.key.hasPrefix("Exif.GPSInfo.") }, "\(name): the refused position is named")
                }
            }
            if let gpsTime = expected["Composite:GPSDateTime"] as? String, metadata.gpsTime != nil || !gpsTime.contains(":99") {
                let seconds = metadata.gpsTime?.timeIntervalSince1970 ?? .nan
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
                let reference = gpsTime.replacingOccurrences(of: ":", with: "-", range: gpsTime.startIndex..<gpsTime.index(gpsTime.startIndex, offsetBy: 10))
                if let date = formatter.date(from: String(reference.prefix(19))) {
                    #expect(abs(seconds - date.timeIntervalSince1970) < 1, "\(name): GPSDateTime \(gpsTime)")
                }
            }
            if let orientation = expected["IFD0:Orientation"] as? Int {
                #expect(metadata.orientation == orientation, "\(name): Orientation")
            }
            if let make = expected["IFD0:Make"] { #expect(metadata.cameraMake == "\(make)".trimmingCharacters(in: .whitespaces), "\(name): Make") }
            if let model = expected["IFD0:Model"] { #expect(metadata.cameraModel == "\(model)".trimmingCharacters(in: .whitespaces), "\(name): Model") }
            if let size = expected["Composite:ImageSize"] as? String {
                sizesCompared += 1
                let parts = size.split(separator: " ").compactMap { Int($0) }
                #expect([metadata.pixelWidth ?? 0, metadata.pixelHeight ?? 0] == parts, "\(name): ImageSize")
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(metadata.byteCount == data.count)
        }
        #expect(misses.keys.sorted() == Self.knownMisses.keys.sorted(), "capture times ExifTool reads and Travelog does not: \(misses)")
        #expect(timesCompared >= 20 && positionsCompared >= 6 && sizesCompared >= 33,
                "compared \(timesCompared) times, \(positionsCompared) positions, \(sizesCompared) sizes")
    }
}
