import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogGeocoding
import TravelogTestSupport

@Suite("travelog osm add|list|remove, and geocode reverse with an extract")
struct OSMCommandTests {
    /// The fuzzer's seed extract (osmium-written): Café Regatta, Merikannontie 8, at 60.1647366, 24.9377736.
    static let seed = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path

    @Test("add writes the places file, a second add of the same name replaces it, remove deletes it and an unknown name is an error")
    func addListRemove() throws {
        let folder = TestDirectory.makeFolder("osm-cli").path
        for _ in 0..<2 {
            var add = try OSMCommand.parseAsRoot(["add", "--osm-dir", folder, Self.seed])
            try add.run()
        }
        #expect(OSMExtractFolder(path: folder).names() == ["small-dense"])
        var list = try OSMCommand.parseAsRoot(["list", "--osm-dir", folder, "--json"])
        try list.run()
        var remove = try OSMCommand.parseAsRoot(["remove", "--osm-dir", folder, "small-dense.osm.pbf"])
        try remove.run()
        #expect(OSMExtractFolder(path: folder).names().isEmpty)
        var again = try OSMCommand.parseAsRoot(["remove", "--osm-dir", folder, "small-dense"])
        #expect(throws: OSMExtractFolderError.noSuchExtract(name: "small-dense", folder: folder, known: [])) { try again.run() }
        var broken = try OSMCommand.parseAsRoot(["add", "--osm-dir", folder, folder + "/missing.osm.pbf"])
        #expect(throws: (any Error).self) { try broken.run() }
        #expect(OSMExtractFolder(path: folder).names().isEmpty)  // nothing half-written
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
}
