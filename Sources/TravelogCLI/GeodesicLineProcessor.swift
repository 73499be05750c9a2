import TravelogFormats
import TravelogCore

/// Turns lines of `travelog geodesic` input into lines of output, in the format of GeographicLib's
/// `GeodSolve -p 9` (inverse: `GeodSolve -i -p 9`):
///
/// - inverse: `lat1 lon1 lat2 lon2` → `azi1 azi2 s12`;
/// - direct: `lat1 lon1 azi1 s12` → `lat2 lon2 azi2`,
///
/// degrees and metres separated by single spaces; angles with `precision + 5` fractional digits,
/// distances with `precision`, rounded like C's `printf` (so -0 prints as `-0.000…`), longitudes in
/// [-180, 180]. Fields are decimal numbers separated by spaces or tabs (GeodSolve's DMS forms are
/// not accepted). A line that cannot be read gives `ERROR: line N: <what was expected>` in its
/// place, so that output lines stay aligned with input lines.
public struct GeodesicLineProcessor: LineProcessor, Sendable {
    /// Which geodesic problem each line poses.
    public enum Problem: Sendable {
        case inverse, direct

        /// The input fields, in order.
        public var fields: [String] {
            switch self {
            case .inverse: ["lat1", "lon1", "lat2", "lon2"]
            case .direct: ["lat1", "lon1", "azi1", "s12"]
            }
        }
    }

    /// GeodSolve's default with `-p 9`: nanometres and 1e-14 degrees.
    public static let defaultPrecision = 9
    /// The range of `precision` (the angles then have up to 17 fractional digits).
    public static let precisionRange = 0...12

    public let problem: Problem
    public let geodesic: Geodesic
    /// Fractional digits of distances in metres; angles in degrees get five more.
    public let precision: Int
    /// The number of lines processed so far.
    public private(set) var lineCount = 0
    /// The number of lines that printed an error.
    public private(set) var failedLineCount = 0
    /// Reads the four numbers of a line.
    private let reader: DecimalFieldReader

    /// - Precondition: `precision` is in `precisionRange`.
    public init(problem: Problem, geodesic: Geodesic = .wgs84, precision: Int = defaultPrecision) {
        precondition(Self.precisionRange.contains(precision), "precision must be in \(Self.precisionRange)")
        self.problem = problem
        self.geodesic = geodesic
        self.precision = precision
        self.reader = DecimalFieldReader(fields: problem.fields, latitudePositions: problem == .inverse ? [0, 2] : [0])
    }

    /// Processes one line (without its line terminator) and appends the output line, with its
    /// newline, to `output`.
    /// - Complexity: O(line length).
    public mutating func process(line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        lineCount += 1
        switch reader.read(line) {
        case .success(let v):
            let angleDigits = precision + 5
            switch problem {
            case .inverse:
                let r = geodesic.inverse(latitude1: v.0, longitude1: v.1, latitude2: v.2, longitude2: v.3)
                FixedDecimalFormatter.append(r.initialAzimuthDegrees, decimals: angleDigits, keepingSignOfZero: true, to: &output)
                output.append(UInt8(ascii: " "))
                FixedDecimalFormatter.append(r.finalAzimuthDegrees, decimals: angleDigits, keepingSignOfZero: true, to: &output)
                output.append(UInt8(ascii: " "))
                FixedDecimalFormatter.append(r.distanceMeters, decimals: precision, keepingSignOfZero: true, to: &output)
            case .direct:
                let r = geodesic.direct(latitude: v.0, longitude: v.1, azimuthDegrees: v.2, distanceMeters: v.3)
                FixedDecimalFormatter.append(r.latitude, decimals: angleDigits, keepingSignOfZero: true, to: &output)
                output.append(UInt8(ascii: " "))
                FixedDecimalFormatter.append(r.longitude, decimals: angleDigits, keepingSignOfZero: true, to: &output)
                output.append(UInt8(ascii: " "))
                FixedDecimalFormatter.append(r.finalAzimuthDegrees, decimals: angleDigits, keepingSignOfZero: true, to: &output)
            }
        case .failure(let error):
            failedLineCount += 1
            output.append(contentsOf: "ERROR: line \(lineCount): \(error)".utf8)
        }
        output.append(UInt8(ascii: "\n"))
    }
}
