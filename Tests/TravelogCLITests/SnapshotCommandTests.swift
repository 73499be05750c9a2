import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogRender
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

    @Test("a malformed region, size, scale or layer is refused before anything is read",
          arguments: [["--region", "52.5,13.4"], ["--size", "10x10"], ["--scale", "9"], ["--layer", "roads"]])
    func validation(arguments: [String]) {
        #expect(throws: (any Error).self) {
            _ = try TravelogCommand.parseAsRoot(["snapshot", "-o", "x.png"] + arguments)
        }
    }
}
