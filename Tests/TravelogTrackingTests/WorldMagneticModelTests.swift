import Foundation
import Testing
import TravelogCore
@testable import TravelogTracking

@Suite("World Magnetic Model 2025", .enabled(if: WMMReference.available, WMMReference.absentReason))
struct WorldMagneticModelTests {
    @Test("declination agrees with NOAA's values at the WMM2025 report's test points to 0.01°", arguments: WMMReference.testValues())
    func declination(_ value: WMMReference.TestValue) throws {
        let model = try WMMReference.model()
        let field = try model.field(latitudeDegrees: value.latitude, longitudeDegrees: value.longitude,
                                    heightMeters: value.heightKilometers * 1_000, decimalYear: value.decimalYear)
        #expect(abs(field.declinationDegrees - value.declination) < 0.01)  // NOAA wmm_calculator 1.4.4
        // The components to 0.1 nT, the report's rounding.
        #expect(abs(field.northNanotesla - value.north) < 0.1)
        #expect(abs(field.eastNanotesla - value.east) < 0.1)
        #expect(abs(field.downNanotesla - value.down) < 0.1)
    }

    @Test("there are the report's twelve test points")
    func twelvePoints() { #expect(WMMReference.testValues().count == 12) }

    @Test("the model is WMM-2025, degree 12, valid 2025.0 to 2030.0")
    func header() throws {
        let model = try WMMReference.model()
        #expect(model.name == "WMM-2025")
        #expect(model.maximumDegree == 12)
        #expect(model.validYears == 2025.0..<2030.0)
    }

    @Test("a date outside the model's five years is refused, not extrapolated")
    func outsideValidity() throws {
        let model = try WMMReference.model()
        #expect(throws: WorldMagneticModelError.dateOutsideModel(decimalYear: 2031, valid: 2025..<2030)) {
            try model.declinationDegrees(latitudeDegrees: 0, longitudeDegrees: 0, decimalYear: 2031)
        }
    }

    @Test("at a geographic pole the declination is still a number")
    func pole() throws {
        let model = try WMMReference.model()
        let field = try model.field(latitudeDegrees: 90, longitudeDegrees: 0, decimalYear: 2026)
        #expect(field.declinationDegrees.isFinite)
    }
}

@Suite("World Magnetic Model files and dates")
struct WorldMagneticModelFileTests {
    @Test("a malformed coefficient line is named")
    func malformed() {
        #expect(throws: WorldMagneticModelError.malformedCoefficients(line: 3)) {
            try WorldMagneticModel(cofText: "    2025.0            WMM-2025     11/13/2024\n  1  0  -29351.8  0.0  12.0  0.0\n  1  x\n")
        }
    }

    @Test("decimal years count the days of the year: 2025-07-02T12:00Z is 2025.5, 2024-01-01 is 2024.0")
    func decimalYears() {
        #expect(DecimalYear.of(Date(timeIntervalSince1970: 1_751_457_600)) == 2025.5)
        #expect(DecimalYear.of(year: 2024, month: 1, day: 1) == 2024.0)
        #expect(DecimalYear.of(year: 2025, month: 2, day: 30) == nil)
    }
}
