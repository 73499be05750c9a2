import ArgumentParser
import Foundation
import Testing
import TravelogSQLite
import TravelogRouting
@testable import TravelogCLI
import TravelogCore
import TravelogGeocoding
import TravelogStore
import TravelogTestSupport

@Suite("travelog osm add|list|remove, and geocode reverse with an extract")
struct OSMCommandTests {
    /// The fuzzer's seed extract (osmium-written): Café Regatta, Merikannontie 8, at 60.1647366, 24.9377736.
    static let seed = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path

    @Test("add writes the places file, a second add of the same name replaces it, remove deletes it and an unknown name is an error")
    func addListRemove() async throws {
        let folder = TestDirectory.makeFolder("osm-cli").path
        // --db names a database that does not exist: nothing to describe, and none is created.
        let database = ["--db", folder + "/none.sqlite"]
        for _ in 0..<2 {
            try await ImportExportCommandTests.run(["osm", "add", "--osm-dir", folder, Self.seed] + database)
        }
        #expect(OSMExtractFolder(path: folder).names() == ["small-dense"])
        try await ImportExportCommandTests.run(["osm", "list", "--osm-dir", folder, "--json"])
        try await ImportExportCommandTests.run(["osm", "remove", "--osm-dir", folder, "small-dense.osm.pbf"] + database)
        #expect(OSMExtractFolder(path: folder).names().isEmpty)
        await #expect(throws: OSMExtractFolderError.noSuchExtract(name: "small-dense", folder: folder, known: [])) {
            try await ImportExportCommandTests.run(["osm", "remove", "--osm-dir", folder, "small-dense"] + database)
        }
        await #expect(throws: (any Error).self) {
            try await ImportExportCommandTests.run(["osm", "add", "--osm-dir", folder, folder + "/missing.osm.pbf"] + database)
        }
        #expect(OSMExtractFolder(path: folder).names().isEmpty)  // nothing half-written
        #expect(!FileManager.default.fileExists(atPath: folder + "/none.sqlite"), "no database was created to describe")
    }

    @Test("osm add describes the existing journal anew (the café's name, a title kept), osm remove takes it back; visits describe does it on demand")
    func addDescribesTheJournal() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let folder = workspace.directory.appendingPathComponent("osm").path
        let finland = try GazetteerCountry(code: "FI", alpha3Code: "FIN", name: "Finland")
        let helsinki = GazetteerPlace(name: "Helsinki", asciiName: "Helsinki", administrativeArea: "Uusimaa", subAdministrativeArea: "",
                                      country: finland, timeZoneIdentifier: "Europe/Helsinki", population: 558_457,
                                      coordinate: Coordinate(validLatitude: 60.16952, longitude: 24.93545)!)
        let gazetteerPath = workspace.directory.appendingPathComponent("helsinki.tlgaz").path
        try Data(Gazetteer.encode([helsinki])).write(to: URL(fileURLWithPath: gazetteerPath))
        let common = ["--db", workspace.database, "--gazetteer", gazetteerPath, "--time-zones", workspace.directory.appendingPathComponent("none").path]
        // Two hours at the café (a fix a minute, a few metres off), then an hour 1 km away.
        var rows = ["time,latitude,longitude"]
        for minute in 0..<180 {
            let (latitude, longitude) = minute < 120 ? (60.16475 + Double(minute % 5) * 0.00001, 24.93780)
                                                     : (60.1720 + Double(minute % 5) * 0.00001, 24.9250)
            rows.append(String(format: "2024-06-01T%02d:%02d:00Z,%.6f,%.6f", 8 + minute / 60, minute % 60, latitude, longitude))
        }
        let day = try workspace.file("day.csv", rows.joined(separator: "\n") + "\n")
        try await ImportExportCommandTests.run(["import", "--user", "ada", day, "--device", "phone"] + common + ["--osm-dir", folder])
        let before = try await JournalCommandTests.visits(workspace.database)
        try #require(before.count == 2)
        #expect(before.allSatisfy { $0.visit.placemark?.poi == nil })
        try await ImportExportCommandTests.run(["visits", "rename", String(before[1].id.rawValue), "The walk's end"] + common)

        try await ImportExportCommandTests.run(["osm", "add", "--osm-dir", folder, Self.seed] + common)
        let added = try await JournalCommandTests.visits(workspace.database)
        #expect(added.map(\.id) == before.map(\.id))
        #expect(added[0].visit.placemark?.poi == "Café Regatta")
        #expect(added[0].visit.placemark?.address == "Merikannontie 8, Helsinki")
        #expect(added[1].title == "The walk's end", "a title stays")

        try await ImportExportCommandTests.run(["osm", "remove", "--osm-dir", folder, "small-dense"] + common)
        #expect(try await JournalCommandTests.visits(workspace.database)[0].visit.placemark?.poi == nil, "described without the extract again")
        try await ImportExportCommandTests.run(["osm", "add", "--osm-dir", folder, Self.seed, "--no-describe"] + common)
        #expect(try await JournalCommandTests.visits(workspace.database)[0].visit.placemark?.poi == nil, "--no-describe leaves it")
        try await ImportExportCommandTests.run(["visits", "describe", "--osm-dir", folder, "--from", "2024-06-01", "--to", "2024-06-02"] + common)
        #expect(try await JournalCommandTests.visits(workspace.database)[0].visit.placemark?.poi == "Café Regatta")
    }

    @Test("geocode reverse names the street, number and café where the extract covers the point, and --json adds their keys")
    func reverseLine() throws {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-cli-reverse").path)
        _ = try folder.add(extractPath: Self.seed)
        guard let finland = try? GazetteerCountry(code: "FI", alpha3Code: "FIN", name: "Finland"),
              let helsinki = Coordinate(validLatitude: 60.16952, longitude: 24.93545) else { Issue.record("no test gazetteer"); return }
        let place = GazetteerPlace(name: "Helsinki", asciiName: "Helsinki", administrativeArea: "Uusimaa", subAdministrativeArea: "Helsinki",
                                   country: finland, timeZoneIdentifier: "Europe/Helsinki", population: 558457, coordinate: helsinki)
        var geocoder = ReverseGeocoder(gazetteer: try Gazetteer(bytes: Gazetteer.encode([place]), path: "memory"))
        geocoder.streetLevel = OSMReverseGeocoder(places: try folder.open())
        var text = ReverseGeocodeLineProcessor(geocoder: geocoder, json: false)
        #expect(text.process(line: "60.1647366 24.9377736").hasPrefix("Café Regatta (amenity=cafe), Merikannontie 8; Helsinki, Uusimaa, Finland (FI); Europe/Helsinki; "))
        #expect(text.process(line: "60.5 25.5").hasPrefix("Helsinki, Uusimaa, Finland (FI)"))  // 40 km away: the gazetteer alone
        var json = ReverseGeocodeLineProcessor(geocoder: geocoder, json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.process(line: "60.1647366 24.9377736").utf8)) as? [String: Any])
        #expect(object["thoroughfare"] as? String == "Merikannontie")
        #expect(object["subThoroughfare"] as? String == "8")
        #expect(object["poi"] as? String == "Café Regatta")
        #expect(object["poiCategory"] as? String == "amenity=cafe")
    }

    @Test("geocode reverse in the middle of a park, far from addresses and streets, names the park (text and --json's areasOfInterest)",
          .enabled(if: BuildData.exists("Helsinki.osm.pbf"),
                   BuildData.absentReason("Helsinki.osm.pbf", goal: "osm-sample", checks: "street-level answers on a real extract")))
    func reverseInPark() throws {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-cli-park").path)
        _ = try folder.add(extractPath: BuildData.path("Helsinki.osm.pbf"))
        guard let finland = try? GazetteerCountry(code: "FI", alpha3Code: "FIN", name: "Finland"),
              let helsinki = Coordinate(validLatitude: 60.16952, longitude: 24.93545) else { Issue.record("no test gazetteer"); return }
        let place = GazetteerPlace(name: "Helsinki", asciiName: "Helsinki", administrativeArea: "Uusimaa", subAdministrativeArea: "Helsinki",
                                   country: finland, timeZoneIdentifier: "Europe/Helsinki", population: 558457, coordinate: helsinki)
        var geocoder = ReverseGeocoder(gazetteer: try Gazetteer(bytes: Gazetteer.encode([place]), path: "memory"))
        geocoder.streetLevel = OSMReverseGeocoder(places: try folder.open())
        // Töölönlahden puisto (way 440426433), 150 m from its edges and farther from any address.
        let line = "60.1757 24.9358"
        var text = ReverseGeocodeLineProcessor(geocoder: geocoder, json: false)
        // The park is the point of interest there too: named once, not again after "in".
        let answer = text.process(line: line)
        #expect(answer.hasPrefix("Töölönlahden puisto (leisure=park); Helsinki") && !answer.contains("in Töölönlahden"), "\(answer)")
        var json = ReverseGeocodeLineProcessor(geocoder: geocoder, json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.process(line: line).utf8)) as? [String: Any])
        #expect((object["areasOfInterest"] as? [String])?.contains("Töölönlahden puisto") == true, "\(object)")
    }

    @Test("directions FROM TO by name: a point of interest, an address, the user's own place; a name nothing matches is named as that end",
          .enabled(if: BuildData.exists("Helsinki.osm.pbf"),
                   BuildData.absentReason("Helsinki.osm.pbf", goal: "osm-sample", checks: "directions between places named on a real extract")))
    func directionsByName() async throws {
        let work = TestDirectory.makeFolder("osm-cli-directions")
        let folder = OSMExtractFolder(path: work.appendingPathComponent("osm").path)
        let extract = BuildData.path("Helsinki.osm.pbf")
        _ = try folder.add(extractPath: extract)
        _ = try RoadGraph.build(extractPath: extract, outputPath: RoadNetwork.filePath(folder: folder.path, name: OSMExtractFolder.name(ofExtract: extract)))
        let database = work.appendingPathComponent("travelog.sqlite").path
        let store = try SQLiteLocationStore(path: database)
        let ada = try await store.addUser(named: "ada")
        // Ada's own place by Kiasma, a name OSM does not have.
        _ = try await store.addPlace(userID: ada.id, name: "Ada's bench", center: try Coordinate(latitude: 60.17145, longitude: 24.93745),
                                     radiusMeters: 30)
        func command(_ from: String, _ to: String) throws -> DirectionsCommand {
            try #require(try DirectionsCommand.parseAsRoot([from, to, "--mode", "walking", "--osm-dir", folder.path, "--db", database,
                                                            "--user", "ada"]) as? DirectionsCommand)
        }
        let network = try command("a", "b").osmOptions.roadNetwork()
        let named = try await command("Stockmann", "Mannerheimintie 10").plan(from: "Stockmann", to: "Mannerheimintie 10", network: network)
        #expect(named.from.label?.hasPrefix("Stockmann, Aleksanterinkatu 52") == true, "\(named.from.label ?? "-")")
        #expect(named.to.label?.hasPrefix("Mannerheimintie 10") == true && named.to.label?.contains("Mannerheimintie 10, Mannerheimintie 10") == false)
        #expect(named.from.coordinate.distanceMeters(to: try Coordinate(latitude: 60.1682941, longitude: 24.9421559)) < 1)
        #expect(named.route.distanceMeters > 80 && named.route.distanceMeters < 600, "\(named.route.distanceMeters)")
        let own = try await command("Ada's bench", "60.1699,24.9384").plan(from: "Ada's bench", to: "60.1699,24.9384", network: network)
        #expect(own.from.label == "Ada's bench" && own.to.label == nil)
        #expect(own.from.coordinate.distanceMeters(to: try Coordinate(latitude: 60.17145, longitude: 24.93745)) < 1)
        await #expect(throws: DirectionsInputError.unknownPlace("Qzxwv Nowhere", end: "to")) {
            _ = try await command("Stockmann", "Qzxwv Nowhere").plan(from: "Stockmann", to: "Qzxwv Nowhere", network: network)
        }
    }
}
