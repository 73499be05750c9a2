import Foundation
import Testing
import TravelogTestSupport
import TravelogTracking

/// The WMM2025 coefficients and NOAA's test values, built by `make wmm` into `.build-data`
/// (scripts/build-wmm.py). Suites that need them are enabled only when they are there.
enum WMMReference {
    static let directory = SharedFixtures.repositoryRoot.appendingPathComponent(".build-data")
    static let coefficientsPath = directory.appendingPathComponent(WorldMagneticModel.wmm2025FileName).path
    static let testValuesPath = directory.appendingPathComponent("WMM2025-test-values.tsv").path

    static var available: Bool {
        FileManager.default.fileExists(atPath: coefficientsPath) && FileManager.default.fileExists(atPath: testValuesPath)
    }

    static let absentReason: Comment =
        ".build-data/WMM2025.COF is absent: these tests check the World Magnetic Model 2025; build it with `make wmm` (`make test` does)"

    static func model() throws -> WorldMagneticModel { try WorldMagneticModel(contentsOfFile: coefficientsPath) }

    /// One row of NOAA's values at the report's test points.
    struct TestValue: Sendable, CustomStringConvertible {
        var decimalYear, heightKilometers, latitude, longitude: Double
        var north, east, down, declination: Double
        var description: String { "\(decimalYear) \(heightKilometers) km \(latitude),\(longitude)" }
    }

    static func testValues() -> [TestValue] {
        guard let text = try? String(contentsOfFile: testValuesPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let v = line.split(separator: "\t").compactMap { Double($0) }
            guard v.count == 11 else { return nil }
            return TestValue(decimalYear: v[0], heightKilometers: v[1], latitude: v[2], longitude: v[3],
                             north: v[4], east: v[5], down: v[6], declination: v[10])
        }
    }
}
