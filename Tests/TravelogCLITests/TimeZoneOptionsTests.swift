import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogGeocoding
import TravelogTrackCLI

@Suite("Finding the time-zone boundaries")
struct TimeZoneOptionsTests {
    static func paths(_ option: String?, _ environment: [String: String]) -> [String] {
        GazetteerOptions.candidatePaths(option: option, variable: "TRAVELOG_TIME_ZONES",
                                        fileName: TimeZoneBoundaries.defaultFileName, environment: environment)
    }

    @Test("the boundaries are --time-zones, else $TRAVELOG_TIME_ZONES, else beside the database, else .build-data, as the gazetteer")
    func candidates() {
        #expect(Self.paths("/z.tlzones", ["TRAVELOG_TIME_ZONES": "/e.tlzones"]) == ["/z.tlzones"])
        #expect(Self.paths(nil, ["TRAVELOG_TIME_ZONES": "/e.tlzones"]) == ["/e.tlzones"])
        #expect(Self.paths(nil, ["TRAVELOG_DB": "/srv/t/db.sqlite"])
                == ["/srv/t/timezones.tlzones"] + DataFiles.installedFolder.map { [$0 + "/timezones.tlzones"] }! + [".build-data/timezones.tlzones"])
    }

    @Test("a file named explicitly must exist; a default one is used only when it does")
    func explicitOrExisting() throws {
        let options = try GazetteerOptions.parse(["--time-zones", "/nonexistent/timezones.tlzones"])
        #expect(throws: TimeZoneBoundariesError.fileNotFound(path: "/nonexistent/timezones.tlzones")) { try options.loadTimeZones() }
        #expect(GazetteerOptions.existingPath(among: ["/nonexistent/a", "/nonexistent/b"]) == nil)
        #expect(GazetteerOptions.existingPath(among: ["/nonexistent/a"]) == "/nonexistent/a")
    }
}
