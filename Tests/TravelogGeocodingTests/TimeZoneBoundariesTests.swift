import Foundation
import Testing
import TravelogCore
@testable import TravelogGeocoding
import TravelogTestSupport

/// The time-zone boundaries that `make timezones` builds, when they have been built.
enum BuiltTimeZones {
    static let path = BuildData.path(TimeZoneBoundaries.defaultFileName)

    static var available: Bool { BuildData.exists(TimeZoneBoundaries.defaultFileName) }

    static let absentReason = BuildData.absentReason(TimeZoneBoundaries.defaultFileName, goal: "timezones",
                                                     checks: "the real time-zone boundaries")

    /// Loaded once for all tests.
    static let loaded: Result<TimeZoneBoundaries, TimeZoneBoundariesError> = Result { () throws(TimeZoneBoundariesError) in
        try TimeZoneBoundaries(contentsOfFile: path)
    }
}

/// Two points about 300 m either side of a border where the zone changes, and the zone of each side.
struct BorderCrossing: Sendable, CustomTestStringConvertible {
    let name: String
    let latitude: Double
    let west: (longitude: Double, zone: String)
    let east: (longitude: Double, zone: String)
    var testDescription: String { name }
}

@Suite("Time-zone boundaries (.build-data/timezones.tlzones)", .enabled(if: BuiltTimeZones.available, BuiltTimeZones.absentReason))
struct TimeZoneBoundariesTests {
    /// The borders were located in the source polygons to 1e-6° (bisection); the points are 300 m
    /// (along the parallel) to each side, with no other border within 600 m.
    static let crossings: [BorderCrossing] = [
        BorderCrossing(name: "Portugal | Spain between Elvas and Badajoz", latitude: 38.88,
                       west: (-7.03724, "Europe/Lisbon"), east: (-7.03031, "Europe/Madrid")),
        BorderCrossing(name: "Kentucky: Central | Eastern (Clinton | Wayne County)", latitude: 36.7,
                       west: (-85.02382, "America/Chicago"), east: (-85.01709, "America/Kentucky/Monticello")),
        BorderCrossing(name: "Arizona | the Navajo Nation near Cameron", latitude: 35.9,
                       west: (-111.7294, "America/Phoenix"), east: (-111.72275, "America/Denver")),
        BorderCrossing(name: "the Navajo Nation | Moenkopi (Hopi, a hole in the Navajo polygon) at Tuba City", latitude: 36.13,
                       west: (-111.11961, "America/Denver"), east: (-111.11294, "America/Phoenix")),
        BorderCrossing(name: "Kazakhstan | China (Xinjiang: the more specific Asia/Urumqi where it overlaps Asia/Shanghai)", latitude: 44.0,
                       west: (80.45012, "Asia/Almaty"), east: (80.45762, "Asia/Urumqi")),
        BorderCrossing(name: "the open Atlantic at 22.5° W: Etc/GMT+2 | Etc/GMT+1", latitude: 45.0,
                       west: (-22.50381, "Etc/GMT+2"), east: (-22.49619, "Etc/GMT+1")),
    ]

    @Test("points 300 m either side of a border get each side's zone", arguments: crossings)
    func borderSides(crossing: BorderCrossing) throws {
        let zones = try BuiltTimeZones.loaded.get()
        let west = try Coordinate(latitude: crossing.latitude, longitude: crossing.west.longitude)
        let east = try Coordinate(latitude: crossing.latitude, longitude: crossing.east.longitude)
        #expect(zones.timeZoneIdentifier(for: west) == crossing.west.zone)
        #expect(zones.timeZoneIdentifier(for: east) == crossing.east.zone)
        // The grid answers what testing every polygon answers.
        #expect(zones.zoneIndexesTestingEveryPolygon(for: west).map { zones.zoneIdentifiers[$0] }.contains(crossing.west.zone))
        #expect(zones.zoneIndexesTestingEveryPolygon(for: east).map { zones.zoneIdentifiers[$0] }.contains(crossing.east.zone))
    }

    @Test("the open sea has the nautical zone of its 15° band (Etc/GMT±N)", arguments: [
        (30.0, -40.0, "Etc/GMT+3"), (0.0, -150.0, "Etc/GMT+10"), (-30.0, 80.0, "Etc/GMT-5"), (-40.0, 0.0, "Etc/GMT"),
        (-50.0, 179.9, "Etc/GMT-12"), (-50.0, -179.9, "Etc/GMT+12"),
    ])
    func openSea(latitude: Double, longitude: Double, zone: String) throws {
        let zones = try BuiltTimeZones.loaded.get()
        #expect(zones.timeZoneIdentifier(for: try Coordinate(latitude: latitude, longitude: longitude)) == zone)
    }

    @Test("every zone is one the system's time-zone database knows")
    func zonesAreKnown() throws {
        let zones = try BuiltTimeZones.loaded.get()
        let unknown = zones.zoneIdentifiers.filter { TimeZone(identifier: $0) == nil }
        #expect(unknown.isEmpty, "unknown to Foundation: \(unknown)")
    }

    @Test("in cells where zones meet, the grid's answer is a zone that testing every polygon finds")
    func gridAgreesWithEveryPolygon() throws {
        let zones = try BuiltTimeZones.loaded.get()
        var generator = SplitMix64(seed: 10_5)
        let mixed = zones.cells.indices.filter { zones.cells[$0] & TimeZoneBoundaries.wholeCellFlag == 0 }
        let cellDegrees = Double(zones.cellUnits) / Double(zones.unitsPerDegree)
        for _ in 0..<24 {
            let cell = mixed[Int.random(in: mixed.indices, using: &generator)]
            let latitude = -90 + (Double(cell / zones.columns) + Double.random(in: 0..<1, using: &generator)) * cellDegrees
            let longitude = -180 + (Double(cell % zones.columns) + Double.random(in: 0..<1, using: &generator)) * cellDegrees
            let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
            let reference = zones.zoneIndexesTestingEveryPolygon(for: coordinate)
            let answer = zones.zoneIndex(for: coordinate)
            #expect(answer.map(reference.contains) == true, "at \(latitude), \(longitude): \(String(describing: answer)) not in \(reference)")
        }
    }
}

@Suite("Time-zone boundary files")
struct TimeZoneBoundariesFileTests {
    @Test("a missing file is reported with its path and how to build it")
    func missingFile() {
        let path = TestDirectory.makeFolder("timezones").appendingPathComponent("absent.tlzones").path
        #expect(throws: TimeZoneBoundariesError.fileNotFound(path: path)) { try TimeZoneBoundaries(contentsOfFile: path) }
        #expect(TimeZoneBoundariesError.fileNotFound(path: path).description.contains("make timezones"))
    }

    @Test("a file without the magic bytes is refused at byte 0")
    func wrongMagic() {
        let bytes = Array("TLGAZETR".utf8) + [UInt8](repeating: 0, count: 48)
        #expect(throws: TimeZoneBoundariesError.corrupt(path: "x", offset: 0, reason: .notTimeZoneBoundaries)) {
            try TimeZoneBoundaries(bytes: bytes, path: "x")
        }
    }

    @Test("a grid that does not cover the world is refused")
    func badGrid() {
        var bytes = TimeZoneBoundaries.magic
        for value: UInt32 in [1, 0, 0, 0, 0, 25_000, 100_000, 1439, 720, 0, 0, 0] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        #expect(throws: TimeZoneBoundariesError.corrupt(path: "x", offset: 28, reason: .badGrid(cellUnits: 25_000, unitsPerDegree: 100_000, columns: 1439, rows: 720))) {
            try TimeZoneBoundaries(bytes: bytes, path: "x")
        }
    }

    @Test("a cut file is refused, naming the section that is cut", .enabled(if: BuiltTimeZones.available, BuiltTimeZones.absentReason))
    func cutFile() throws {
        let bytes = try BinaryDataFile.contents(ofFile: BuiltTimeZones.path)
        #expect {
            try TimeZoneBoundaries(bytes: Array(bytes.dropLast(1)), path: "cut")
        } throws: { error in
            guard case .corrupt(_, _, .truncated(section: "points", _, _)) = error as? TimeZoneBoundariesError else { return false }
            return true
        }
    }
}
