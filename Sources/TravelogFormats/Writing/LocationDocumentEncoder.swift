import TravelogCore

/// The markup of one format, piece by piece; `DocumentWriter` decides when each piece is due.
protocol LocationDocumentEncoder {
    mutating func writeHeader(_ document: ExportDocument, to output: OutputBuffer)
    mutating func writeTrackStart(name: String?, to output: OutputBuffer)
    mutating func writeSegmentStart(to output: OutputBuffer)
    mutating func write(_ location: Location, to output: OutputBuffer)
    mutating func writeSegmentEnd(to output: OutputBuffer)
    mutating func writeTrackEnd(to output: OutputBuffer)
    mutating func writeFooter(to output: OutputBuffer)
}

/// How many decimals each kind of number gets in every export format.
enum ExportPrecision {
    /// Degrees of latitude and longitude: 1e-7° is 1.1 cm on the ground.
    static let coordinateDecimals = 7
    /// Metres, metres per second and degrees of course: millimetres, trailing zeros dropped.
    static let measurementDecimals = 3
}

extension Location {
    /// The vertical accuracy in metres, or `nil` when not reported.
    var exportVerticalAccuracyMeters: Double? { verticalAccuracyMeters >= 0 ? verticalAccuracyMeters : nil }

    /// The course in [0, 360) as it will read once rounded to `measurementDecimals`, or `nil` when
    /// unknown (a course of 359.9999° would otherwise be written "360", which GPX forbids).
    var exportCourseDegrees: Double? {
        guard let course = courseIfKnown else { return nil }
        let wrapped = course.truncatingRemainder(dividingBy: 360)
        return wrapped >= 359.9995 ? 0 : wrapped
    }
}
