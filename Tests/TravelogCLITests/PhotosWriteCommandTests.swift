import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogFormats
import TravelogPhotos
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// `travelog photos geotag --write` on real photos (Pillow's test images, `make photo-samples`),
/// read back by Travelog and by ExifTool, and privacy zones in every mode of `geotag`.
@Suite("travelog photos geotag --write and privacy zones")
struct PhotosWriteCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace
    static let samples = BuildData.path("photos") + "/pillow"
    static let exifTool = "/usr/bin/exiftool"

    /// A walk through Helsinki from 2003-12-14 11:50 to 12:10 UTC, a fix a minute with an elevation
    /// rising a metre a minute (flower.jpg was taken at 12:01:44 by its camera's clock).
    static func walkGPX() -> String {
        var points = ""
        for minute in 0...20 {
            let t = Double(minute) / 20
            let time = Date(timeIntervalSince1970: 1_071_402_600 + Double(minute) * 60)
            points += String(format: "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>%@</time></trkpt>\n",
                             60.1650 + 0.0100 * t, 24.9300 + 0.0200 * t, 10.0 + Double(minute), ISO8601TimeFormatter.string(time))
        }
        return """
            <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            \(points)</trkseg></trk></gpx>
            """
    }

    /// ExifTool's output for files, by file.
    static func exifTool(_ arguments: [String]) throws -> [String: [String: Any]] {
        let data = Data(try ChildProcess.run(exifTool, arguments).output)
        guard !data.isEmpty else { return [:] }
        let records = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return Dictionary(records.compactMap { record in (record["SourceFile"] as? String).map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Tags that may change when a position is written: the GPS group, composites made of it, and
    /// the file system's own size and dates.
    static func isExpectedChange(_ key: String) -> Bool {
        key.hasPrefix("GPS:") || key.hasPrefix("Composite:GPS") || key == "SourceFile"
            || ["System:FileSize", "System:FileModifyDate", "System:FileAccessDate", "System:FileInodeChangeDate"].contains(key)
    }

    /// Where data lies in the file (not what it is): Exiv2 moves the thumbnail and a TIFF's strips
    /// when the GPS IFD grows the metadata; `sameData` checks what they point to is unchanged.
    static let layoutTags: Set<String> = ["IFD1:ThumbnailOffset", "IFD0:StripOffsets"]

    /// The bytes a layout tag points to, before and after, are the same.
    static func sameData(_ key: String, before: (record: [String: Any], bytes: Data), after: (record: [String: Any], bytes: Data)) -> Bool {
        let lengthKey = key == "IFD1:ThumbnailOffset" ? "IFD1:ThumbnailLength" : "IFD0:StripByteCounts"
        func pieces(_ side: (record: [String: Any], bytes: Data)) -> [Data]? {
            let offsets = "\(side.record[key] ?? "")".split(separator: " ").compactMap { Int($0) }
            let lengths = "\(side.record[lengthKey] ?? "")".split(separator: " ").compactMap { Int($0) }
            guard !offsets.isEmpty, offsets.count == lengths.count else { return nil }
            return zip(offsets, lengths).map { offset, length in
                offset >= 0 && offset + length <= side.bytes.count ? side.bytes.subdata(in: offset..<offset + length) : Data()
            }
        }
        guard let old = pieces(before), let new = pieces(after) else { return false }
        return old == new
    }

    /// A workspace with the walk imported for ada, and `names` copied from the samples into `photos/`.
    static func prepared(_ names: [String]) throws -> (Workspace, URL)? {
        guard FileManager.default.fileExists(atPath: samples) else {
            Issue.record("\(samples) is absent: run `make photo-samples` (`make test` does)")
            return nil
        }
        guard FileManager.default.isExecutableFile(atPath: exifTool) else {
            Issue.record("exiftool is not installed: `apt-get install libimage-exiftool-perl` (`make test` does); --write is checked against it")
            return nil
        }
        let workspace = try Workspace()
        let photos = workspace.directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: samples + "/" + name, toPath: photos.appendingPathComponent(name).path)
        }
        return (workspace, photos)
    }

    @Test("--write puts the placed position into a JPEG and a TIFF: Travelog and ExifTool read it within 1 m, every other tag as it was")
    func writesJPEGAndTIFF() async throws {
        guard let (workspace, photos) = try Self.prepared(["flower.jpg", "g4_orientation_6.tif", "ifd_tag_type.tiff"]) else { return }
        let gpx = try workspace.file("walk.gpx", Self.walkGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", gpx])
        let jpeg = photos.appendingPathComponent("flower.jpg").path
        let tiff = photos.appendingPathComponent("g4_orientation_6.tif").path
        let hasGPS = photos.appendingPathComponent("ifd_tag_type.tiff").path
        // The TIFF has no capture time: ExifTool gives it one first (the test's set-up, not what is compared).
        _ = try Self.exifTool(["-q", "-overwrite_original", "-DateTimeOriginal=2003:12:14 12:02:30", tiff])
        let paths = [jpeg, tiff, hasGPS]
        let before = try Self.exifTool(["-json", "-a", "-G1", "-s", "-n"] + paths)
        let bytesBefore = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        try #require(before[tiff]?["ExifIFD:DateTimeOriginal"] as? String == "2003:12:14 12:02:30")

        let store = try SQLiteLocationStore(path: workspace.database)
        let user = try #require(try await store.user(named: "ada"))
        let history = PhotoStoreHistory(store: store, userID: user.id, deviceIDs: nil, zoneAt: nil)
        let geotagger = PhotoGeotagger(clock: .offset(seconds: 0))
        var expected: [String: PhotoEXIFWriter.Fix] = [:]
        for path in [jpeg, tiff] { expected[path] = try #require(try await geotagger.geotag(path: path, history: history).exifFix) }

        try await ImportExportCommandTests.run(["photos", "geotag", "--db", workspace.database, "--user", "ada", "--write",
                                                "--camera-offset", "+00:00", photos.path])
        let after = try Self.exifTool(["-json", "-a", "-G1", "-s", "-n"] + paths)
        for path in [jpeg, tiff] {
            let name = (path as NSString).lastPathComponent
            let fix = try #require(expected[path])
            // Travelog's reader.
            let read = try PhotoMetadataReader.read(path: path)
            let position = try #require(read.position, "\(name): no position read back")
            #expect(position.coordinate.distanceMeters(to: fix.coordinate) < 1, "\(name)")
            #expect(abs((position.altitudeMeters ?? .nan) - (fix.altitudeMeters ?? .nan)) < 0.01, "\(name): altitude")
            #expect(abs((position.horizontalErrorMeters ?? .nan) - (fix.horizontalErrorMeters ?? .nan)) < 0.001, "\(name): accuracy")
            #expect(read.gpsTime.map { abs($0.timeIntervalSince(fix.time ?? .distantPast)) < 0.001 } == true, "\(name): GPS time")
            // ExifTool's.
            let record = try #require(after[path])
            let latitude = try #require(record["Composite:GPSLatitude"] as? Double, "\(name): ExifTool reads no latitude")
            let longitude = try #require(record["Composite:GPSLongitude"] as? Double)
            let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
            #expect(coordinate.distanceMeters(to: fix.coordinate) < 1, "\(name): ExifTool's position")
            #expect(record["GPS:GPSMapDatum"] as? String == "WGS-84" && record["GPS:GPSVersionID"] as? String == "2 3 0 0", "\(name)")
            #expect(record["GPS:GPSDateStamp"] as? String == "2003:12:14", "\(name)")
            // Every other tag as it was.
            let old = try #require(before[path])
            let index = try #require(paths.firstIndex(of: path))
            let bytesAfter = try Data(contentsOf: URL(fileURLWithPath: path))
            let changed = Set(old.keys).union(record.keys).filter { !Self.isExpectedChange($0) }
                .filter { "\(old[$0] ?? "absent")" != "\(record[$0] ?? "absent")" }
            let moved = changed.filter(Self.layoutTags.contains)
            #expect(changed.subtracting(moved).isEmpty,
                    "\(name): changed \(changed.sorted().map { "\($0): \(old[$0] ?? "absent") -> \(record[$0] ?? "absent")" })")
            for key in moved {
                #expect(Self.sameData(key, before: (old, bytesBefore[index]), after: (record, bytesAfter)), "\(name): \(key) points to other bytes")
            }
            // The original kept, byte for byte.
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".original")) == bytesBefore[index], "\(name).original")
        }
        // ExifTool places the JPEG within a millimetre-scale of ours: its reading is the check above; the photo with GPS is untouched.
        #expect(try Data(contentsOf: URL(fileURLWithPath: hasGPS)) == bytesBefore[2])
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted()
                == ["flower.jpg", "flower.jpg.original", "g4_orientation_6.tif", "g4_orientation_6.tif.original", "ifd_tag_type.tiff"])
        // A second run writes nothing: both photos have a position now.
        let written = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        try await ImportExportCommandTests.run(["photos", "geotag", "--db", workspace.database, "--user", "ada", "--write",
                                                "--camera-offset", "+00:00", photos.path])
        #expect(try Data(contentsOf: URL(fileURLWithPath: jpeg)) == written)
    }

    @Test("a position inside a privacy zone (hide or drop) is never written: listed, no sidecar, no EXIF", arguments: ZoneRule.allCases)
    func privacyZones(rule: ZoneRule) async throws {
        let workspace = try Workspace()
        let day = try workspace.file("day.gpx", JournalCommandTests.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day])
        let photos = workspace.directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let walk = photos.appendingPathComponent("walk.jpg")
        try PhotosCommandTests.photo(minute: 135.5).write(to: walk)
        let original = try Data(contentsOf: walk)
        let store = try SQLiteLocationStore(path: workspace.database)
        let user = try #require(try await store.user(named: "ada"))
        let history = PhotoStoreHistory(store: store, userID: user.id, deviceIDs: nil, zoneAt: nil)
        let placed = try #require(try await PhotoGeotagger(clock: .offset(seconds: 0)).geotag(path: walk.path, history: history).placement?.coordinate)
        let zone = try ZoneDefinition(name: "Park", shape: .circle(Circle(center: placed, radiusMeters: 200)), rule: rule)
        _ = try await store.addZone(zone, userID: user.id, at: Date())
        let zones = PhotoPrivacyZones(try await store.zones(userID: user.id))
        let result = try await PhotoGeotagger(clock: .offset(seconds: 0), privacyZone: zones.zoneName(containing:)).geotag(path: walk.path, history: history)
        #expect(result.placement == .unplaced(.insidePrivacyZone(name: "Park")))
        #expect(result.exifFix == nil)
        #expect(PhotoJSON(result).reason == "inside privacy zone Park" && PhotoJSON(result).latitude == nil)
        for mode in ["--write", "--xmp", "--dry-run"] {
            try await ImportExportCommandTests.run(["photos", "geotag", "--db", workspace.database, "--user", "ada", mode,
                                                    "--camera-offset", "+00:00", photos.path])
        }
        #expect(try Data(contentsOf: walk) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path) == ["walk.jpg"])
        // Without the zone the same photo is placed there.
        let outside = try await PhotoGeotagger(clock: .offset(seconds: 0), privacyZone: PhotoPrivacyZones([]).zoneName(containing:))
            .geotag(path: walk.path, history: history)
        #expect(outside.placement?.coordinate == placed)
    }
}
