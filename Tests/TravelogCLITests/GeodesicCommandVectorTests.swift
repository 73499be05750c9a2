import Foundation
import Testing
import TravelogTestSupport
@testable import TravelogCLI

/// The committed GeodSolve vectors (Tests/TravelogCoreTests/Fixtures) run through the line
/// processor: every output line has GeodSolve's layout (three fields, the same number of digits,
/// the same signs) and values within the printed rounding plus a few ulps.
@Suite("travelog geodesic on the committed GeodSolve vectors")
struct GeodesicCommandVectorTests {
    /// (input fields, GeodSolve's three output fields) from a vector file.
    static func vectors(_ name: String, outputColumns: [Int]) -> [(input: String, expected: [String])] {
        let url = SharedFixtures.ownFixture("TravelogCoreTests/Fixtures/\(name)")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: " ").map(String.init)
            return (fields[0..<4].joined(separator: " "), outputColumns.map { fields[$0] })
        }
    }

    @Test("inverse and direct output match GeodSolve's layout and values", arguments: [
        (GeodesicLineProcessor.Problem.inverse, "geodesic-inverse-vectors.txt", [4, 5, 6]),
        (GeodesicLineProcessor.Problem.direct, "geodesic-direct-vectors.txt", [4, 5, 6]),
    ])
    func vectors(problem: GeodesicLineProcessor.Problem, file: String, columns: [Int]) throws {
        let vectors = Self.vectors(file, outputColumns: columns)
        #expect(vectors.count > 400)
        var processor = GeodesicLineProcessor(problem: problem)
        for (input, expected) in vectors {
            let output = processor.process(line: input).split(separator: " ").map(String.init)
            try #require(output.count == 3, "\(input)")
            for (index, (ours, theirs)) in zip(output, expected).enumerated() {
                // Same digits after the point, same sign (including -0 unless the value is 0 by
                // round-off), values within 1e-12° and 1e-8 m: GeodSolve prints angles to 1e-14°
                // and distances to 1e-9 m, and either side may be a few ulps off.
                #expect(ours.split(separator: ".").last?.count == theirs.split(separator: ".").last?.count, "\(input)")
                #expect(ours.hasPrefix("-") == theirs.hasPrefix("-") || Double(ours) == 0, "\(input): \(ours) vs \(theirs)")
                let difference = abs(try #require(Double(ours)) - (try #require(Double(theirs))))
                let tolerance = problem == .inverse && index == 2 ? 1e-8 : 1e-12
                #expect(difference <= tolerance || abs(difference - 360) <= tolerance, "\(input): \(ours) vs \(theirs)")
            }
        }
        #expect(processor.failedLineCount == 0)
    }
}
