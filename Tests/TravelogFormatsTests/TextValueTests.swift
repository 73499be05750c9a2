import Foundation
import Testing
@testable import TravelogFormats

@Suite("Numbers and WKT points in text")
struct TextValueTests {
    @Test("decimal numbers read as the standard library reads them", arguments: [
        "52.52", "-13.405", "0", "-0.5", ".5", "5.", "+3", " 42 ", "5.0E-4", "1e5", "123456789012345",
        "0.000000000000000000001", "1234567890123456789012", "39.9808633333333", "116.305878333333", "00052.5200",
    ])
    func numbers(text: String) throws {
        let expected = try #require(Double(text.trimmingCharacters(in: .whitespaces)))
        #expect(DecimalNumber.parse(Array(text.utf8)[...]) == expected)
    }

    @Test("text that is not a decimal number is rejected", arguments: [
        "", " ", "-", ".", "abc", "nan", "inf", "0x1p3", "1,5", "1.2.3", "1e", "1e+", "e5", "12abc", "1 2",
    ])
    func notNumbers(text: String) {
        #expect(DecimalNumber.parse(Array(text.utf8)[...]) == nil)
    }

    @Test("a decimal comma is read only when asked for")
    func decimalComma() {
        #expect(DecimalNumber.parse(Array("39,979984".utf8)[...], decimalComma: true) == 39.979984)
        #expect(DecimalNumber.parse(Array("-1,5e3".utf8)[...], decimalComma: true) == -1500)
        #expect(DecimalNumber.parse(Array("1,5".utf8)[...]) == nil)
    }

    @Test("WKT points, with or without space, Z, or an SRID prefix", arguments: [
        ("POINT (10.70340326 53.86314754)", WKTPoint(longitude: 10.70340326, latitude: 53.86314754)),
        ("point(1 2)", WKTPoint(longitude: 1, latitude: 2)),
        ("  POINT Z (1 2 3)  ", WKTPoint(longitude: 1, latitude: 2, altitudeMeters: 3)),
        ("POINT M (1 2 3)", WKTPoint(longitude: 1, latitude: 2)),
        ("SRID=4326;POINT(-117.19 32.89)", WKTPoint(longitude: -117.19, latitude: 32.89)),
    ])
    func wkt(text: String, point: WKTPoint) {
        #expect(WKTPoint(utf8: Array(text.utf8)[...]) == point)
    }

    @Test("other geometries, empty points and other SRIDs are not read", arguments: [
        "POINT EMPTY", "LINESTRING (1 2, 3 4)", "POINT (1)", "POINT (1 2", "POINT (1 2) x", "SRID=3857;POINT(1 2)", "POINT (a b)",
    ])
    func notWKT(text: String) {
        #expect(WKTPoint(utf8: Array(text.utf8)[...]) == nil)
    }
}
