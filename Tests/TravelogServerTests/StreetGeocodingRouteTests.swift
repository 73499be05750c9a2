import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogGeocoding
import TravelogServer
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("Street-level reverse geocoding through the API")
struct StreetGeocodingRouteTests {
    @Test("with an OSM extract added, /api/v1/geocode/reverse gives the street, number and café; elsewhere only the gazetteer's fields")
    func reverseWithExtract() async throws {
        // The fuzzer's seed extract (written by osmium): Café Regatta, Merikannontie 8, at 60.1647366, 24.9377736.
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("server-osm").path)
        _ = try folder.add(extractPath: SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path)
        let store = try SQLiteLocationStore(path: TestDirectory.makeFolder("server-osm-db").appendingPathComponent("travelog.sqlite").path)
        let app = TravelogServerApp(store: store, configuration: ServerConfiguration(port: 0, bcryptCost: 4), gazetteer: try ServerFixture.gazetteer(),
                                    streetLevel: OSMReverseGeocoder(places: try folder.open()))
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await app.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .read)
        try await app.makeApplication().test(.router) { client in
            try await client.execute(uri: "/api/v1/geocode/reverse?lat=60.1647366&lon=24.9377736", method: .get, headers: Auth.bearer(token)) { response in
                let placemark = try #require(response.body.json as? [String: Any])
                #expect(placemark["thoroughfare"] as? String == "Merikannontie")
                #expect(placemark["subThoroughfare"] as? String == "8")
                #expect(placemark["poi"] as? String == "Café Regatta")
                #expect(placemark["poiCategory"] as? String == "amenity=cafe")
                #expect(placemark["name"] as? String == "Berlin")  // the fixture's gazetteer: Berlin and Tokyo
            }
            try await client.execute(uri: "/api/v1/geocode/reverse?lat=35.7&lon=139.7", method: .get, headers: Auth.bearer(token)) { response in
                let placemark = try #require(response.body.json as? [String: Any])
                #expect(placemark["name"] as? String == "Tokyo")
                #expect(placemark["thoroughfare"] == nil && placemark["poi"] == nil)
            }
        }
    }
}
