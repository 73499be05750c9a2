import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("travelog export --everything and import of an account")
struct AccountArchiveCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    @Test("export --everything --photos carries an added photo's file; import puts it in the new database's photo folder")
    func photosTravel() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        _ = try await store.addUser(named: "ada")
        let jpeg = ExifJPEGBuilder().decodableJPEG()
        let photo = workspace.directory.appendingPathComponent("walk.jpg")
        try jpeg.write(to: photo)
        let db = ["--db", workspace.database, "--user", "ada"]
        try await ImportExportCommandTests.run(["photos", "add", photo.path] + db)
        let owner = try #require(try await store.user(named: "ada"))
        let digest = try #require(try await store.photos(PhotoQuery(userID: owner.id)).first?.record.digest)
        let zip = workspace.directory.appendingPathComponent("ada.zip").path
        for wrong in [["export", "--photos", "--format", "gpx"], ["export", "--everything", "--photos"]] {
            await #expect(throws: (any Error).self, "\(wrong)") { try await ImportExportCommandTests.run(wrong + db) }
        }
        try await ImportExportCommandTests.run(["export", "--everything", "--photos", "-o", zip] + db)

        let other = workspace.directory.appendingPathComponent("other.sqlite").path
        try await ImportExportCommandTests.run(["import", zip, "--db", other])
        let imported = try SQLiteLocationStore(path: other)
        let ada = try #require(try await imported.user(named: "ada"))
        let landed = try #require(try await imported.photos(PhotoQuery(userID: ada.id)).first)
        #expect(landed.record.path == "\(other)-photos/originals/\(ada.id.rawValue)/\(digest).jpg" && landed.record.uploaded)
        #expect(try Data(contentsOf: URL(fileURLWithPath: landed.record.path)) == jpeg)
    }
}
