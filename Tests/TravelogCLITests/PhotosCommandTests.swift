import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogPhotos
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("travelog photos geotag on a stored history")
struct PhotosCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace
    typealias B = ExifJPEGBuilder

    /// A photo taken at `minute` of `JournalCommandTests.dayGPX` (which starts 2024-06-01T06:00:00Z),
    /// its clock in UTC with no offset written.
    static func photo(minute: Double) -> Data {
        var builder = ExifJPEGBuilder()
        let date = Date(timeIntervalSince1970: 1_717_221_600 + minute * 60)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        builder.exif = [(B.dateTimeOriginal, .ascii(formatter.string(from: date)))]
        return builder.jpeg()
    }

    @Test("a photo at home is at the visit's centre, one on the walk between fixes, one before the day is refused")
    func placesByVisitsAndFixes() async throws {
        let workspace = try Workspace()
        let day = try workspace.file("day.gpx", JournalCommandTests.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day, "--device", "phone"])
        let store = try SQLiteLocationStore(path: workspace.database)
        let user = try #require(try await store.user(named: "ada"))
        let history = PhotoStoreHistory(store: store, userID: user.id, deviceIDs: nil, zoneAt: nil)
        let geotagger = PhotoGeotagger(clock: .offset(seconds: 0))
        func place(_ minute: Double) async throws -> PhotoPlacement? {
            let metadata = try PhotoMetadataReader.read(data: Self.photo(minute: minute), path: "m\(minute).jpg")
            return try await geotagger.geotag(metadata, history: history).placement
        }
        let home = try #require(try await store.visits(userID: user.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false).first)
        guard case .visit(let center, let radius, _, _)? = try await place(60) else { Issue.record("not in the visit"); return }
        #expect(center == home.visit.center && radius == home.visit.radiusMeters)
        // 135.5 minutes: half way between the walk's fixes at 135 and 136 minutes, which are 1 minute apart.
        let metadata = try PhotoMetadataReader.read(data: Self.photo(minute: 135.5), path: "walk.jpg")
        let walk = try await geotagger.geotag(metadata, history: history)
        guard case .interpolated(let coordinate, _, let before, let after)? = walk.placement else {
            Issue.record("\(String(describing: walk.placement))"); return
        }
        #expect(before == Date(timeIntervalSince1970: 1_717_221_600 + 135 * 60) && after == Date(timeIntervalSince1970: 1_717_221_600 + 136 * 60))
        // The walk's fixes lie on a straight line in degrees; over 100 m the geodesic is within 1e-7° of it.
        #expect(abs(coordinate.latitude - (52.52 + (52.50 - 52.52) * 15.5 / 30)) < 1e-7)
        #expect(abs(coordinate.longitude - (13.405 + (13.45 - 13.405) * 15.5 / 30)) < 1e-7)
        #expect(try await place(-10) == .unplaced(.noFixBefore(nextFixAfterSeconds: 600)))
        #expect(try await place(500) == .unplaced(.noFixAfter(lastFixBeforeSeconds: 21 * 60)))
        // Without an offset, the zone of where the fixes are (no gazetteer here: the source's offset, none in GPX) is unknown.
        let automatic = try await PhotoGeotagger().geotag(metadata, history: history)
        #expect(automatic.placement == .unplaced(.noCameraOffset))
    }

    @Test("the command reads a folder, names what it cannot read, and refuses to run without --dry-run")
    func command() async throws {
        let workspace = try Workspace()
        let day = try workspace.file("day.gpx", JournalCommandTests.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day])
        let photos = workspace.directory.appendingPathComponent("photos/2024")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Self.photo(minute: 60).write(to: photos.appendingPathComponent("a.jpg"))
        try Data("not a photo".utf8).write(to: photos.appendingPathComponent("b.JPG"))
        try Data("notes".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        let found = try PhotoFileArguments.parse([workspace.directory.appendingPathComponent("photos").path]).files()
        #expect(found.map { ($0 as NSString).lastPathComponent } == ["a.jpg", "b.JPG"])
        try await ImportExportCommandTests.run(["photos", "geotag", "--db", workspace.database, "--user", "ada", "--dry-run", "--json",
                                                "--camera-offset", "+00:00", photos.path])
        #expect(throws: (any Error).self) {
            _ = try TravelogCommand.parseAsRoot(["photos", "geotag", "--db", workspace.database, photos.path])
        }
        #expect(throws: (any Error).self) {
            _ = try TravelogCommand.parseAsRoot(["photos", "geotag", "--dry-run", "--camera-offset", "+2", photos.path])
        }
        #expect(throws: (any Error).self) {
            _ = try TravelogCommand.parseAsRoot(["photos", "geotag", "--dry-run", "--camera-zone", "Mars/Olympus", photos.path])
        }
    }
    @Test("--xmp writes a sidecar ExifTool reads at the same position, only for placed photos, and never replaces one")
    func sidecars() async throws {
        let workspace = try Workspace()
        let day = try workspace.file("day.gpx", JournalCommandTests.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day])
        let photos = workspace.directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let walk = photos.appendingPathComponent("walk.jpg"), early = photos.appendingPathComponent("early.jpg")
        try Self.photo(minute: 135.5).write(to: walk)
        try Self.photo(minute: -10).write(to: early)
        let original = try Data(contentsOf: walk)
        let arguments = ["photos", "geotag", "--db", workspace.database, "--user", "ada", "--xmp", "--camera-offset", "+00:00", photos.path]
        try await ImportExportCommandTests.run(arguments)
        #expect(try Data(contentsOf: walk) == original)
        #expect(!FileManager.default.fileExists(atPath: early.path + ".xmp"))
        let sidecar = walk.path + ".xmp"
        let written = try String(contentsOfFile: sidecar, encoding: .utf8)
        // 52.5096667°, 15.5 of the walk's 30 minutes (the geodesic is 2 mm off the line in degrees; ExifTool reads it back below).
        #expect(written.contains("exif:GPSLatitude=\"52,30.5") && written.contains("exif:GPSLongitude=\"13,25.69"))
        try await ImportExportCommandTests.run(arguments)
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8) == written)
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted() == ["early.jpg", "walk.jpg", "walk.jpg.xmp"])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else {
            Issue.record("exiftool is not installed: `apt-get install libimage-exiftool-perl` (`make test` does) to read the sidecar back")
            return
        }
        let output = Data(try ChildProcess.run("/usr/bin/exiftool", ["-json", "-n", "-XMP:GPSLatitude", "-XMP:GPSLongitude", sidecar]).output)
        let record = try #require((try JSONSerialization.jsonObject(with: output) as? [[String: Any]])?.first)
        let store = try SQLiteLocationStore(path: workspace.database)
        let user = try #require(try await store.user(named: "ada"))
        let history = PhotoStoreHistory(store: store, userID: user.id, deviceIDs: nil, zoneAt: nil)
        let placed = try await PhotoGeotagger(clock: .offset(seconds: 0)).geotag(path: walk.path, history: history)
        let coordinate = try #require(placed.placement?.coordinate)
        #expect(abs((record["GPSLatitude"] as? Double ?? 0) - coordinate.latitude) < 1e-7)
        #expect(abs((record["GPSLongitude"] as? Double ?? 0) - coordinate.longitude) < 1e-7)
    }
}
