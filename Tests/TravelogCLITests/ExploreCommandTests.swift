import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogRender

/// `travelog explore --countries-map`: the countries map written as GeoJSON and as a PNG, for a history
/// with a stay in Helsinki and two in Paris on two days.
@Suite("travelog explore --countries-map")
struct ExploreCommandTests {
    static var coded: Bool {
        !((GazetteerOptions.worldBasePath().flatMap { try? WorldOutlines(contentsOf: $0) })?.countries.isEmpty ?? true)
    }

    /// A GPX track of a stay of `minutes` at one place, a fix a minute from `start`.
    static func stay(latitude: Double, longitude: Double, start: String, minutes: Int = 45) -> String {
        let base = ISO8601DateFormatter().date(from: start)!
        let points = (0..<minutes).map { minute in
            let time = ISO8601DateFormatter().string(from: base.addingTimeInterval(Double(minute) * 60))
            return #"<trkpt lat="\#(latitude)" lon="\#(longitude)"><time>\#(time)</time></trkpt>"#
        }
        return points.joined(separator: "\n")
    }

    @Test("Finland (1 day) and France (2 days) as GeoJSON features with their days; the same as a PNG; a wrong extension is refused",
          .enabled(if: coded, "needs the world base with countries' codes (make world)"))
    func countriesMap() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let gpx = try workspace.file("trips.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            \(Self.stay(latitude: 60.1699, longitude: 24.9384, start: "2024-05-01T08:00:00Z"))
            </trkseg><trkseg>
            \(Self.stay(latitude: 48.8606, longitude: 2.3376, start: "2024-05-03T09:00:00Z"))
            </trkseg><trkseg>
            \(Self.stay(latitude: 48.8530, longitude: 2.3499, start: "2024-05-04T09:00:00Z"))
            </trkseg></trk></gpx>
            """)
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", "--device", "gps", gpx])
        let geojson = workspace.directory.appendingPathComponent("countries.geojson").path
        try await ImportExportCommandTests.run(["explore", "--db", workspace.database, "--user", "ada", "--countries-map", geojson])
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geojson))) as? [String: Any])
        let features = try #require(map["features"] as? [[String: Any]])
        let days = features.map { ($0["id"] as? String ?? "?", ($0["properties"] as? [String: Any])?["days"] as? Int ?? -1) }
        #expect(days.map(\.0) == ["FR", "FI"] && days.map(\.1) == [2, 1], "\(days)")
        #expect(map["mostDays"] as? Int == 2)
        #expect(((features.first?["properties"] as? [String: Any])?["name"] as? String) == "France")

        let png = workspace.directory.appendingPathComponent("countries.png").path
        try await ImportExportCommandTests.run(["explore", "--db", workspace.database, "--user", "ada", "--countries-map", png])
        let image = try Canvas(png: try Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(image.widthPixels == 1600 && image.heightPixels > 900)

        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["explore", "--countries-map", "countries.svg"]) }
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["explore", "--days", "--countries-map", "a.png"]) }
    }
}
