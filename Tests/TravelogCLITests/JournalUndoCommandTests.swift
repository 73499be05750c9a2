import Foundation
import Testing
@testable import TravelogCLI
import TravelogStore

/// `travelog visits restore` and `unmerge`: the command line's undo (issue 26).
@Suite("travelog visits restore and unmerge")
struct JournalUndoCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    @Test("merge, delete, restore, unmerge: the day's three entries come back as they were")
    func undo() async throws {
        let workspace = try Workspace()
        let noGazetteer = ["--gazetteer", workspace.directory.appendingPathComponent("none.tlgaz").path]
        let day = try workspace.file("day.gpx", JournalCommandTests.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day])
        let visits = try await JournalCommandTests.visits(workspace.database)
        try #require(visits.count == 3)
        let ids = visits.map { String($0.id.rawValue) }
        try await ImportExportCommandTests.run(["visits", "merge", "--db", workspace.database, ids[0], ids[1]] + noGazetteer)
        try await ImportExportCommandTests.run(["visits", "delete", "--db", workspace.database, ids[0]] + noGazetteer)
        #expect(try await JournalCommandTests.visits(workspace.database).map(\.id) == [visits[1].id, visits[2].id],
                "the store's own list, before merges are applied: the first is deleted")
        try await ImportExportCommandTests.run(["visits", "restore", "--db", workspace.database, ids[0]] + noGazetteer)
        try await ImportExportCommandTests.run(["visits", "unmerge", "--db", workspace.database, ids[0]] + noGazetteer)
        let after = try await JournalCommandTests.visits(workspace.database)
        #expect(after.map(\.id) == visits.map(\.id))
        #expect(after.allSatisfy { !$0.hidden && $0.mergedUntil == nil })
        await #expect(throws: (any Error).self) {
            try await ImportExportCommandTests.run(["visits", "restore", "--db", workspace.database, "999"] + noGazetteer)
        }
    }
}
