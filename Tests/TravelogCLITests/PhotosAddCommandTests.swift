import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogPhotos
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("travelog photos add")
struct PhotosAddCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace
    typealias B = ExifJPEGBuilder

    /// A decodable photo taken at `minute` of `JournalCommandTests.dayGPX`, its clock in UTC with no offset written.
    static func photo(minute: Double, orientation: UInt16 = 1) -> Data {
        var builder = ExifJPEGBuilder()
        let date = Date(timeIntervalSince1970: 1_717_221_600 + minute * 60)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        builder.ifd0 = [(B.orientation, .short(orientation))]
        builder.exif = [(B.dateTimeOriginal, .ascii(formatter.string(from: date)))]
        return builder.decodableJPEG()
    }

    /// A decodable photo with its own GPS position, altitude, direction and accuracy, at +02:00.
    static func gpsPhoto() -> Data {
        var builder = ExifJPEGBuilder()
        builder.exif = [(B.dateTimeOriginal, .ascii("2024:06:01 10:00:00")), (B.offsetTimeOriginal, .ascii("+02:00"))]
        builder.gps = [(B.latitudeRef, .ascii("N")), (B.latitude, B.dms(60.1699)), (B.longitudeRef, .ascii("E")),
                       (B.longitude, B.dms(24.9384)), (B.altitudeRef, .byte(0)), (B.altitude, .rationals([(125, 10)])),
                       (B.imgDirectionRef, .ascii("T")), (B.imgDirection, .rationals([(905, 10)])),
                       (B.hPositioningError, .rationals([(7, 2)]))]
        return builder.decodableJPEG()
    }

    @Test("a folder is added once: own GPS kept, the others placed by the history or told why not, a bad file named and skipped")
    func addsAFolder() async throws {
        let workspace = try Workspace()
        let day = try workspace.file("day.gpx", JournalCommandTests.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day, "--device", "phone"])
        let folder = workspace.directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trip/day1"), withIntermediateDirectories: true)
        try Self.photo(minute: 60, orientation: 6).write(to: folder.appendingPathComponent("home.jpg"))
        try Self.photo(minute: 135.5).write(to: folder.appendingPathComponent("trip/walk.jpg"))
        try Self.photo(minute: -10).write(to: folder.appendingPathComponent("trip/day1/early.jpg"))
        try Self.gpsPhoto().write(to: folder.appendingPathComponent("trip/day1/helsinki.jpeg"))
        try Self.photo(minute: 60, orientation: 6).write(to: folder.appendingPathComponent("trip/day1/home-copy.jpg"))
        try Data("not a photo".utf8).write(to: folder.appendingPathComponent("trip/broken.JPG"))
        try B().jpeg().write(to: folder.appendingPathComponent("trip/no-pixels.jpg"))
        let arguments = ["photos", "add", "--db", workspace.database, "--user", "ada", "--camera-offset", "+00:00", folder.path]
        await #expect(throws: ExitCode(1)) { try await ImportExportCommandTests.run(arguments) }

        let store = try SQLiteLocationStore(path: workspace.database)
        let user = try #require(try await store.user(named: "ada"))
        let photos = try await store.photos(PhotoQuery(userID: user.id))
        #expect(photos.count == 4)
        let byName = Dictionary(photos.map { (($0.record.path as NSString).lastPathComponent, $0) }, uniquingKeysWith: { first, _ in first })
        let home = try #require(byName["home.jpg"] ?? byName["home-copy.jpg"])
        #expect(home.record.positionSource == .visit && home.record.coordinate != nil)
        #expect(home.record.orientation == 6 && home.record.pixelWidth == 64 && home.record.pixelHeight == 48)
        #expect(home.record.takenAt == Date(timeIntervalSince1970: 1_717_221_600 + 3600) && home.record.offsetSource == "camera-offset")
        let walk = try #require(byName["walk.jpg"])
        #expect(walk.record.positionSource == .interpolated && (walk.record.accuracyMeters ?? -1) >= 0)
        #expect(walk.record.path == folder.appendingPathComponent("trip/walk.jpg").path)
        let early = try #require(byName["early.jpg"])
        #expect(early.record.positionSource == .unplaced && early.record.coordinate == nil)
        #expect(early.record.unplacedReason?.isEmpty == false)
        let helsinki = try #require(byName["helsinki.jpeg"])
        #expect(helsinki.record.positionSource == .ownGPS && helsinki.record.altitudeMeters == 12.5)
        #expect(helsinki.record.directionDegrees == 90.5 && helsinki.record.accuracyMeters == 3.5)
        #expect(abs((helsinki.record.coordinate?.latitude ?? 0) - 60.1699) < 1e-6)
        // --camera-offset wins over the photo's own +02:00: its 10:00 is read as 10:00 UTC.
        #expect(helsinki.record.takenAt == Date(timeIntervalSince1970: 1_717_236_000) && helsinki.record.offsetSource == "camera-offset")
        let thumbnails = PhotoFolder(root: URL(fileURLWithPath: workspace.database + "-photos")).thumbnails
        for photo in photos { #expect(thumbnails.exist(digest: photo.record.digest)) }

        // Again: nothing new (no bad files this time).
        try FileManager.default.removeItem(at: folder.appendingPathComponent("trip/broken.JPG"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("trip/no-pixels.jpg"))
        try await ImportExportCommandTests.run(arguments)
        #expect(try await store.photos(PhotoQuery(userID: user.id)) == photos)
        // A moved file is followed, not added.
        let moved = folder.appendingPathComponent("trip/day1/walk-renamed.jpg")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("trip/walk.jpg"), to: moved)
        try await ImportExportCommandTests.run(arguments)
        let after = try await store.photos(PhotoQuery(userID: user.id))
        #expect(after.count == 4)
        #expect(after.first { $0.id == walk.id }?.record.path == moved.path)
    }

    @Test("options are checked before anything is read")
    func options() throws {
        #expect(throws: (any Error).self) { _ = try TravelogCommand.parseAsRoot(["photos", "add", "--camera-offset", "+2", "x"]) }
        #expect(throws: (any Error).self) {
            _ = try TravelogCommand.parseAsRoot(["photos", "add", "--camera-offset", "+02:00", "--camera-zone", "Europe/Helsinki", "x"])
        }
        #expect(throws: (any Error).self) { _ = try TravelogCommand.parseAsRoot(["photos", "add", "--jobs", "0", "x"]) }
    }
}
