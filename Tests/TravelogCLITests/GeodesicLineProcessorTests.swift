import ArgumentParser
import Testing
@testable import TravelogCLI

/// Expected lines are GeodSolve's own output (GeographicLib 2.1.2, `GeodSolve -i -p 9` and
/// `GeodSolve -p 9`), character for character: digits, rounding, signs of zero, ±180.
@Suite("travelog geodesic: line processing in GeodSolve's format")
struct GeodesicLineProcessorTests {
    @Test("inverse lines print azi1 azi2 s12 exactly as GeodSolve -i -p 9", arguments: [
        ("0 0 0 0", "180.00000000000000 180.00000000000000 0.000000000"),
        ("-0 -0 -0 -0", "0.00000000000000 0.00000000000000 0.000000000"),
        ("0 0 10 -180", "-0.00000000000000 -180.00000000000000 18898076.625391074"),
        ("90 0 -90 0", "180.00000000000000 180.00000000000000 20003931.458625447"),
        ("40.6 -73.8 1.3 103.9", "3.41601042645253 177.40262189151917 15358227.818927834"),
        ("30 200 -30 -170", "-170.02056434465567 -170.02056434465567 6724359.971231940"),
        ("0 0 0.5 179.5", "25.67187286829188 154.32708546994161 19936288.578965314"),
        ("10 10 10 10", "180.00000000000000 180.00000000000000 0.000000000"),
        ("  1.5\t2.5   3.5 4.5  \r", "45.12549294082406 45.21275396686093 313652.764728139"),
    ])
    func inverse(input: String, expected: String) {
        var processor = GeodesicLineProcessor(problem: .inverse)
        #expect(processor.process(line: input) == expected)
        #expect(processor.failedLineCount == 0)
    }

    @Test("direct lines print lat2 lon2 azi2 exactly as GeodSolve -p 9", arguments: [
        ("0 0 90 20003931.4586", "-0.00000000000000 179.69837371739692 90.00000000000000"),
        ("90 0 0 1000", "89.99104696596872 180.00000000000000 180.00000000000000"),
        ("-0 -0 -0 -0", "0.00000000000000 0.00000000000000 -0.00000000000000"),
        ("40 -170 -90 1e6", "39.41209069423953 178.35591707404629 -97.45414708971197"),
        ("0 -540 0 -1e7", "-89.98240075856276 -180.00000000000000 0.00000000000000"),
        ("0 0 0 1e9", "-1.77773986316086 0.00000000000000 0.00000000000000"),
    ])
    func direct(input: String, expected: String) {
        var processor = GeodesicLineProcessor(problem: .direct)
        #expect(processor.process(line: input) == expected)
    }

    @Test("the precision sets the digits as GeodSolve's -p does")
    func precision() {
        var three = GeodesicLineProcessor(problem: .inverse, precision: 3)
        #expect(three.process(line: "40.6 -73.8 1.3 103.9") == "3.41601043 177.40262189 15358227.819")
        var zero = GeodesicLineProcessor(problem: .inverse, precision: 0)
        #expect(zero.process(line: "40.6 -73.8 1.3 103.9") == "3.41601 177.40262 15358228")
    }

    @Test("a bad line prints what was expected, and processing continues")
    func errors() {
        var processor = GeodesicLineProcessor(problem: .inverse)
        #expect(processor.process(line: "1 2 3") == "ERROR: line 1: expected 4 numbers `lat1 lon1 lat2 lon2`, found 3 fields")
        #expect(processor.process(line: "0 0 0 0 extra") == "ERROR: line 2: expected 4 numbers `lat1 lon1 lat2 lon2`, found 5 fields")
        #expect(processor.process(line: "") == "ERROR: line 3: expected 4 numbers `lat1 lon1 lat2 lon2`, found 0 fields")
        #expect(processor.process(line: "foo 1 2 3") == "ERROR: line 4: expected a decimal number for lat1, found \"foo\"")
        #expect(processor.process(line: "0 0 91 0") == "ERROR: line 5: expected lat2 in [-90, 90] degrees, found 91.0")
        #expect(processor.process(line: "0 1e999 0 0") == "ERROR: line 6: expected a finite number for lon1, found \"1e999\"")
        #expect(processor.process(line: "40.6 -73.8 1.3 103.9") == "3.41601042645253 177.40262189151917 15358227.818927834")
        #expect(processor.failedLineCount == 6)
        #expect(processor.lineCount == 7)

        var direct = GeodesicLineProcessor(problem: .direct)
        #expect(direct.process(line: "0 0 north 100") == "ERROR: line 1: expected a decimal number for azi1, found \"north\"")
        #expect(direct.process(line: "0 0 0 100 m") == "ERROR: line 2: expected 4 numbers `lat1 lon1 azi1 s12`, found 5 fields")
        // Only latitudes are range-checked: azimuths and longitudes may be any finite angle.
        #expect(direct.process(line: "0 400 450 0") == "0.00000000000000 40.00000000000000 90.00000000000000")
    }

    @Test("lines given as bytes append one output line each")
    func bytes() {
        var processor = GeodesicLineProcessor(problem: .inverse)
        var output: [UInt8] = []
        for line in ["0 0 0 0", "45"] {
            var text = line
            text.withUTF8 { processor.process(line: $0, into: &output) }
        }
        #expect(String(decoding: output, as: UTF8.self)
                == "180.00000000000000 180.00000000000000 0.000000000\nERROR: line 2: expected 4 numbers `lat1 lon1 lat2 lon2`, found 1 field\n")
    }

    @Test("the commands parse, and a precision beyond 12 is refused")
    func commandLine() throws {
        #expect(try TravelogCommand.parseAsRoot(["geodesic", "inverse"]) is GeodesicCommand.Inverse)
        let direct = try #require(try TravelogCommand.parseAsRoot(["geodesic", "direct", "-p", "3"]) as? GeodesicCommand.Direct)
        #expect(direct.options.precision == 3)
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["geodesic", "inverse", "--precision", "13"]) }
    }
}
