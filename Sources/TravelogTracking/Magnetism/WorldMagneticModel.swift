import Foundation
import TravelogCore

/// The World Magnetic Model: spherical-harmonic Gauss coefficients of the Earth's main field and
/// their secular variation, valid for five years from an epoch.
///
/// Reads NOAA's `.COF` files (the model's own distribution format: a header `epoch name date`,
/// then one line `n m g h ġ ḣ` per coefficient, nT and nT/year). Travelog builds
/// `.build-data/WMM2025.COF` at make time from PyPI's `pygeomag` (`scripts/build-wmm.py`).
///
/// Source: Chulliat et al., "The US/UK World Magnetic Model for 2025–2030: Technical Report",
/// NOAA NCEI, 2024 (equations 4–19), and NOAA's reference C library `GeomagnetismLibrary.c`.
public struct WorldMagneticModel: Sendable {
    /// The reference radius of the geomagnetic spherical harmonics, in metres (6371.2 km).
    public static let referenceRadiusMeters: Double = 6_371_200
    /// How long a model is valid after its epoch, in years.
    public static let validityYears: Double = 5
    /// The file name of the WMM2025 coefficients in `.build-data`.
    public static let wmm2025FileName = "WMM2025.COF"

    /// The model's name as the file gives it (`WMM-2025`).
    public let name: String
    /// The epoch, as a decimal year (2025.0).
    public let epochYear: Double
    /// The highest degree (12 for the WMM).
    public let maximumDegree: Int
    /// Main-field coefficients g and h (nT) and their yearly change (nT/year), indexed n(n+1)/2+m.
    /// The coefficients by index n(n+1)/2 + m, Schmidt-normalised once here so an evaluation
    /// multiplies each term once less.
    let coefficients: [Coefficient]

    /// One (n, m) term: Gauss coefficients (nT) and their secular variation (nT/year), each times
    /// the Schmidt semi-normalisation factor, the factor itself, and the Legendre recursion's K.
    struct Coefficient: Sendable {
        var g = 0.0, h = 0.0, gDot = 0.0, hDot = 0.0
        var schmidt = 1.0
        var recursionK = 0.0
    }

    /// Parses a `.COF` file's text.
    /// - Throws: `WorldMagneticModelError.malformedCoefficients` naming the line.
    public init(cofText: String) throws(WorldMagneticModelError) {
        var lines = cofText.split(whereSeparator: \.isNewline).enumerated().makeIterator()
        guard let (_, header) = lines.next() else { throw .malformedCoefficients(line: 1) }
        let headerFields = header.split(whereSeparator: \.isWhitespace)
        guard headerFields.count >= 2, let epoch = Double(headerFields[0]) else { throw .malformedCoefficients(line: 1) }
        var rows: [(n: Int, m: Int, values: [Double])] = []
        while let (offset, line) = lines.next() {
            if line.hasPrefix("9999") { break }
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 6, let n = Int(fields[0]), let m = Int(fields[1]), n >= 1, m >= 0, m <= n else {
                throw .malformedCoefficients(line: offset + 1)
            }
            let values = fields[2..<6].compactMap { Double($0) }
            guard values.count == 4 else { throw .malformedCoefficients(line: offset + 1) }
            rows.append((n, m, values))
        }
        let degree = rows.map(\.n).max() ?? 0
        guard degree >= 1 else { throw .malformedCoefficients(line: 2) }
        let count = (degree + 1) * (degree + 2) / 2
        var g = [Double](repeating: 0, count: count), h = g, gDot = g, hDot = g
        for row in rows {
            let index = row.n * (row.n + 1) / 2 + row.m
            g[index] = row.values[0]; h[index] = row.values[1]
            gDot[index] = row.values[2]; hDot[index] = row.values[3]
        }
        self.name = String(headerFields[1])
        self.epochYear = epoch
        self.maximumDegree = degree
        let (schmidt, recursionK) = Self.normalisation(maximumDegree: degree)
        self.coefficients = (0..<count).map { index in
            Coefficient(g: g[index] * schmidt[index], h: h[index] * schmidt[index], gDot: gDot[index] * schmidt[index],
                        hDot: hDot[index] * schmidt[index], schmidt: schmidt[index], recursionK: recursionK[index])
        }
    }

    /// Loads a `.COF` file.
    /// - Throws: `WorldMagneticModelError.unreadable` or `.malformedCoefficients`.
    public init(contentsOfFile path: String) throws(WorldMagneticModelError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        try self.init(cofText: String(decoding: data, as: UTF8.self))
    }

    /// The years the model is valid for: [epoch, epoch + 5).
    public var validYears: Range<Double> { epochYear..<(epochYear + Self.validityYears) }

    /// Schmidt quasi-normal factors and k(n, m) = ((n-1)² - m²) / ((2n-1)(2n-3)) per index.
    private static func normalisation(maximumDegree: Int) -> ([Double], [Double]) {
        let count = (maximumDegree + 1) * (maximumDegree + 2) / 2
        var schmidt = [Double](repeating: 1, count: count)
        var k = [Double](repeating: 0, count: count)
        for n in 1...maximumDegree {
            let index = n * (n + 1) / 2
            schmidt[index] = schmidt[(n - 1) * n / 2] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let factor = Double((n - m + 1) * (m == 1 ? 2 : 1)) / Double(n + m)
                schmidt[index + m] = schmidt[index + m - 1] * factor.squareRoot()
            }
            if n > 1 {
                for m in 0...n where m <= n - 2 {
                    k[index + m] = Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
                }
            }
        }
        return (schmidt, k)
    }
}
