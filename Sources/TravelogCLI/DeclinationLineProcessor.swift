import TravelogFormats
import TravelogTracking

/// Turns `lat lon` lines into the magnetic declination there, one output line per input line:
/// degrees east of true north with five decimals, or with `json` an object
/// `{"latitude":…,"longitude":…,"declination_degrees":…,"inclination_degrees":…,"total_intensity_nt":…}`.
/// A line that cannot be read gives `ERROR: line N: …` in its place.
struct DeclinationLineProcessor: LineProcessor {
    let model: WorldMagneticModel
    let decimalYear: Double
    let heightMeters: Double
    let json: Bool
    private(set) var lineCount = 0
    private(set) var failedLineCount = 0
    private let reader = DecimalFieldReader(fields: ["lat", "lon"], latitudePositions: [0])

    init(model: WorldMagneticModel, decimalYear: Double, heightMeters: Double, json: Bool) {
        self.model = model
        self.decimalYear = decimalYear
        self.heightMeters = heightMeters
        self.json = json
    }

    mutating func process(line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        lineCount += 1
        switch reader.read(line) {
        case .success(let values):
            do {
                let field = try model.field(latitudeDegrees: values.0, longitudeDegrees: values.1,
                                            heightMeters: heightMeters, decimalYear: decimalYear)
                output.append(contentsOf: Self.format(field, latitude: values.0, longitude: values.1, json: json).utf8)
            } catch {
                failedLineCount += 1
                output.append(contentsOf: "ERROR: line \(lineCount): \(error)".utf8)
            }
        case .failure(let error):
            failedLineCount += 1
            output.append(contentsOf: "ERROR: line \(lineCount): \(error)".utf8)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// One answer, for people (declination only) or as a JSON object.
    static func format(_ field: MagneticFieldElements, latitude: Double, longitude: Double, json: Bool) -> String {
        let declination = FixedDecimalFormatter.string(field.declinationDegrees, decimals: 5, keepingSignOfZero: true)
        guard json else { return declination }
        return "{\"latitude\":\(latitude),\"longitude\":\(longitude),\"declination_degrees\":\(declination),"
            + "\"inclination_degrees\":\(FixedDecimalFormatter.string(field.inclinationDegrees, decimals: 5, keepingSignOfZero: true)),"
            + "\"total_intensity_nt\":\(FixedDecimalFormatter.string(field.totalNanotesla, decimals: 1, keepingSignOfZero: true))}"
    }
}
