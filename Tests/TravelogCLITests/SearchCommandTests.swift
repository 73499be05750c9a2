import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogGeocoding
import TravelogServer
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("travelog search")
struct SearchCommandTests {
    static let seed = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path

    @Test("a malformed --near or --region, an unknown --category, a --limit out of range or an empty query is a usage error")
    func refusals() {
        for arguments in [["cafe", "--near", "60"], ["cafe", "--near", "91,0"], ["cafe", "--region", "60,24,0"], ["cafe", "--category", "spaceport"],
                          ["cafe", "--limit", "0"], ["cafe", "--limit", "51"], ["  "]] {
            #expect(throws: (any Error).self, "\(arguments)") { _ = try SearchCommand.parseAsRoot(arguments) }
        }
        #expect((try? SearchCommand.parseAsRoot(["cafe", "--near", "60.16,24.93", "--category", "coffee", "--limit", "3"])) != nil)
    }

    @Test("the user's own places come from an existing database; a database that is not there is not created")
    func ownPlaces() async throws {
        let folder = TestDirectory.makeFolder("search-cli")
        let path = folder.appendingPathComponent("travelog.sqlite").path
        let absent = folder.appendingPathComponent("absent.sqlite").path
        let none = try #require(try SearchCommand.parseAsRoot(["dentist", "--db", absent]) as? SearchCommand)
        #expect(await none.ownPlaces().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: absent))
        let store = try SQLiteLocationStore(path: path)
        let ada = try await store.addUser(named: "ada")
        _ = try await store.addPlace(userID: ada.id, name: "Dentist", center: try Coordinate(latitude: 60.17, longitude: 24.94), radiusMeters: 40)
        let command = try #require(try SearchCommand.parseAsRoot(["dentist", "--db", path, "--user", "ada"]) as? SearchCommand)
        let own = await command.ownPlaces()
        #expect(own.map(\.name) == ["Dentist"])
        #expect(own.first?.visitCount == 0 && own.first?.lastVisit == nil)
    }

    @Test("the search index of an --osm-dir with the seed extract finds Café Regatta; an empty folder gives none")
    func index() throws {
        let folder = TestDirectory.makeFolder("search-cli-osm").path
        _ = try OSMExtractFolder(path: folder).add(extractPath: Self.seed)
        let options = try OSMCommand.FolderOptions.parse(["--osm-dir", folder])
        let index = try #require(try options.searchIndex())
        #expect(index.search("regata").first?.name == "Café Regatta")
        let empty = try OSMCommand.FolderOptions.parse(["--osm-dir", TestDirectory.makeFolder("search-cli-empty").path])
        #expect(try empty.searchIndex() == nil)
    }
}
