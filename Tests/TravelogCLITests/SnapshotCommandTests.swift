import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogRender
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("travelog snapshot")
struct SnapshotCommandTests {
    @Test("a day's walk becomes a PNG of the asked size at the asked scale, also when no tile server answers")
    func snapshot() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let walk = try workspace.file("walk.csv", ImportExportCommandTests.walk)
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", walk])
        let output = workspace.directory.appendingPathComponent("day.png").path
        try await ImportExportCommandTests.run([
            "snapshot", "--db", workspace.database, "--user", "ada", "--from", "2024-06-15", "--to", "2024-06-15",
            "--size", "400x300", "--scale", "2", "--layer", "heat", "--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png",
            "--tile-cache", workspace.directory.appendingPathComponent("tiles").path, "-o", output,
        ])
        let image = try Canvas(png: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(image.widthPixels == 800 && image.heightPixels == 600)
    }

    @Test("--photos draws the range's photos as pins: the image changes where they are, and not for a photo of another day")
    func photos() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let walk = try workspace.file("walk.csv", ImportExportCommandTests.walk)
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", walk])
        func draw(_ name: String, photos: Bool) async throws -> Canvas {
            let output = workspace.directory.appendingPathComponent(name).path
            try await ImportExportCommandTests.run([
                "snapshot", "--db", workspace.database, "--user", "ada", "--from", "2024-06-15", "--to", "2024-06-15",
                "--region", "52.521,13.406,0.02", "--size", "300x300", "--tiles", "none", "-o", output,
            ] + (photos ? ["--photos"] : []))
            return try Canvas(png: try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try #require(try await store.user(named: "ada"))
        func add(_ digest: String, at seconds: Double, latitude: Double, longitude: Double) async throws {
            _ = try await store.addPhoto(PhotoRecord(digest: digest, path: "/photos/\(digest).jpg", mimeType: "image/jpeg", byteCount: 1,
                                                     takenAt: Date(timeIntervalSince1970: seconds),
                                                     coordinate: Coordinate(validLatitude: latitude, longitude: longitude),
                                                     positionSource: .ownGPS, addedAt: Date()), userID: ada.id)
        }
        // A photo of the next day, in the view: not in the range, not drawn.
        try await add("other-day", at: 1_718_500_000, latitude: 52.517, longitude: 13.400)
        let plain = try await draw("plain.png", photos: false)
        #expect(try await draw("other-day.png", photos: true).rgbaBytes() == plain.rgbaBytes())
        // Two photos of the day at one spot in the view's south-west corner: one pin, drawn there.
        for digest in ["a", "b"] { try await add(digest, at: 1_718_447_500, latitude: 52.515, longitude: 13.398) }
        let drawn = try await draw("photos.png", photos: true)
        let (before, after) = (plain.rgbaBytes(), drawn.rgbaBytes())
        let changed = Set(before.indices.filter { before[$0] != after[$0] }.map { $0 / 4 })
        #expect(!changed.isEmpty, "the photos' pin is drawn")
        let columns = changed.map { $0 % drawn.widthPixels }, rows = changed.map { $0 / drawn.widthPixels }
        #expect(columns.min()! < drawn.widthPixels / 2 && rows.max()! > drawn.heightPixels / 2, "in the south-west of the image")
    }

    @Test("a malformed region, size, scale or layer is refused before anything is read",
          arguments: [["--region", "52.5,13.4"], ["--size", "10x10"], ["--scale", "9"], ["--layer", "roads"]])
    func validation(arguments: [String]) {
        #expect(throws: (any Error).self) {
            _ = try TravelogCommand.parseAsRoot(["snapshot", "-o", "x.png"] + arguments)
        }
    }
}
