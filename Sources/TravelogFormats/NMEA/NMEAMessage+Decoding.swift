import TravelogCore

extension NMEAMessage {
    /// GGA fix qualities that are a real position: GPS, DGPS, PPS, RTK fixed and float, estimated.
    /// Not 0 (invalid), 7 (manual input) or 8 (simulator).
    static let fixQualities: ClosedRange<Int> = 1...6
    /// FAA mode indicators (RMC, GLL, VTG, GNS) that mean the position is not a real fix: not
    /// valid, manual input, simulator.
    static let noFixModes: Set<Unicode.Scalar> = ["N", "M", "S"]

    /// Decodes a sentence of a type this reader uses (any talker); `nil` for other types and for
    /// proprietary sentences.
    /// - Throws: `NMEADecodingError` when a field that places the fix is malformed, or when a
    ///   sentence reports a fix without a time or a position.
    public init?(_ sentence: NMEASentence) throws(NMEADecodingError) {
        guard !sentence.isProprietary else { return nil }
        let decode: (NMEAFields) throws(NMEADecodingError) -> NMEAMessage
        switch sentence.type {
        case "GGA": decode = { (fields) throws(NMEADecodingError) in .gga(try Self.decodeGGA(fields)) }
        case "RMC": decode = { (fields) throws(NMEADecodingError) in .rmc(try Self.decodeRMC(fields)) }
        case "GLL": decode = { (fields) throws(NMEADecodingError) in .gll(try Self.decodeGLL(fields)) }
        case "VTG": decode = { fields in .vtg(Self.decodeVTG(fields)) }
        case "GSA": decode = { fields in .gsa(Self.decodeGSA(fields)) }
        case "GST": decode = { (fields) throws(NMEADecodingError) in .gst(try Self.decodeGST(fields)) }
        case "GNS": decode = { (fields) throws(NMEADecodingError) in .gns(try Self.decodeGNS(fields)) }
        case "ZDA": decode = { (fields) throws(NMEADecodingError) in .zda(try Self.decodeZDA(fields)) }
        default: return nil
        }
        self = try sentence.withFields(decode)
    }

    /// The time and, for a fix, the position starting at field `coordinateIndex`; a fix needs both.
    private static func timeAndPosition(_ sentence: NMEAFields, time timeIndex: Int, coordinate coordinateIndex: Int,
                                        report: FixReport) throws(NMEADecodingError) -> (NMEATimeOfDay?, Position?) {
        let time = try sentence.timeOfDay(timeIndex)
        guard report == .fix else { return (time, nil) }
        guard let found = try sentence.coordinate(at: coordinateIndex) else {
            throw NMEADecodingError(.missingField("latitude"))
        }
        guard time != nil || timeIndex >= sentence.count else { throw NMEADecodingError(.missingField("time")) }
        return (time, Position(coordinate: found.coordinate, minuteDecimals: found.minuteDecimals))
    }

    private static func mode(_ sentence: NMEAFields, _ index: Int) -> Unicode.Scalar? {
        sentence.character(index).map { Unicode.Scalar($0) }
    }

    /// A length in metres from a value and its unit field (`M`, or `F` for feet).
    private static func meters(_ sentence: NMEAFields, _ index: Int) -> Double? {
        guard let value = sentence.decimal(index) else { return nil }
        return sentence.character(index + 1) == UInt8(ascii: "F") ? Units.meters(feet: value) : value
    }

    static func decodeGGA(_ sentence: NMEAFields) throws(NMEADecodingError) -> GGA {
        let quality = sentence.integer(5)
        let report: FixReport = quality.map { fixQualities.contains($0) } == true ? .fix : .noFix
        let (time, position) = try timeAndPosition(sentence, time: 0, coordinate: 1, report: report)
        return GGA(timeOfDay: time, position: position, quality: quality, satellitesUsed: sentence.integer(6),
                   horizontalDilution: sentence.decimal(7), altitudeMSLMeters: meters(sentence, 8),
                   geoidSeparationMeters: meters(sentence, 10), fixReport: report)
    }

    static func decodeRMC(_ sentence: NMEAFields) throws(NMEADecodingError) -> RMC {
        let mode = mode(sentence, 11)
        let active = sentence.character(1) == UInt8(ascii: "A") && !(mode.map(noFixModes.contains) ?? false)
        let report: FixReport = active ? .fix : .noFix
        let (time, position) = try timeAndPosition(sentence, time: 0, coordinate: 2, report: report)
        var variation = sentence.decimal(9)
        if sentence.character(10) == UInt8(ascii: "W") { variation = variation.map { -$0 } }
        return RMC(timeOfDay: time, position: position, speedKnots: sentence.decimal(6),
                   courseDegrees: sentence.decimal(7), date: sentence.dateDDMMYY(8),
                   magneticVariationDegrees: variation, mode: mode, fixReport: report)
    }

    static func decodeGLL(_ sentence: NMEAFields) throws(NMEADecodingError) -> GLL {
        // NMEA 1.5 GLL has only the position (and maybe the time): no status means a fix.
        let mode = mode(sentence, 6)
        let status = sentence.field(5)
        let active = (status.isEmpty || status.first == UInt8(ascii: "A")) && !(mode.map(noFixModes.contains) ?? false)
            && !(sentence.field(0).isEmpty && sentence.field(2).isEmpty)
        let report: FixReport = active ? .fix : .noFix
        let (time, position) = try timeAndPosition(sentence, time: 4, coordinate: 0, report: report)
        return GLL(timeOfDay: time, position: position, mode: mode, fixReport: report)
    }

    static func decodeVTG(_ sentence: NMEAFields) -> VTG {
        let mode = mode(sentence, 8)
        if mode.map(noFixModes.contains) == true {
            return VTG(courseDegrees: nil, magneticCourseDegrees: nil, speedKnots: nil, speedKilometersPerHour: nil,
                       mode: mode)
        }
        // NMEA 1.5 VTG has no unit letters: course true, course magnetic, knots, km/h.
        if sentence.count <= 4 || (sentence.character(1) != UInt8(ascii: "T") && !sentence.field(1).isEmpty) {
            return VTG(courseDegrees: sentence.decimal(0), magneticCourseDegrees: sentence.decimal(1),
                       speedKnots: sentence.decimal(2), speedKilometersPerHour: sentence.decimal(3), mode: nil)
        }
        return VTG(courseDegrees: sentence.decimal(0), magneticCourseDegrees: sentence.decimal(2),
                   speedKnots: sentence.decimal(4), speedKilometersPerHour: sentence.decimal(6), mode: mode)
    }

    static func decodeGSA(_ sentence: NMEAFields) -> GSA {
        var satellites: [Int] = []
        for index in 2...13 {
            if let satellite = sentence.integer(index) {
                if satellites.isEmpty { satellites.reserveCapacity(12) }
                satellites.append(satellite)
            }
        }
        return GSA(fixMode: sentence.integer(1), satellites: satellites, positionDilution: sentence.decimal(14),
                   horizontalDilution: sentence.decimal(15), verticalDilution: sentence.decimal(16),
                   systemID: sentence.integer(17))
    }

    static func decodeGST(_ sentence: NMEAFields) throws(NMEADecodingError) -> GST {
        GST(timeOfDay: try sentence.timeOfDay(0), rangeRMSMeters: sentence.decimal(1),
            semiMajorSigmaMeters: sentence.decimal(2), semiMinorSigmaMeters: sentence.decimal(3),
            orientationDegrees: sentence.decimal(4), latitudeSigmaMeters: sentence.decimal(5),
            longitudeSigmaMeters: sentence.decimal(6), altitudeSigmaMeters: sentence.decimal(7))
    }

    static func decodeGNS(_ sentence: NMEAFields) throws(NMEADecodingError) -> GNS {
        // One mode character per constellation: a fix when any of them has one.
        let modes = sentence.text(5)
        let report: FixReport = modes.contains { "ADPRFE".contains($0) } ? .fix : .noFix
        let (time, position) = try timeAndPosition(sentence, time: 0, coordinate: 1, report: report)
        return GNS(timeOfDay: time, position: position, modes: modes, satellitesUsed: sentence.integer(6),
                   horizontalDilution: sentence.decimal(7), altitudeMSLMeters: sentence.decimal(8),
                   geoidSeparationMeters: sentence.decimal(9), fixReport: report)
    }

    static func decodeZDA(_ sentence: NMEAFields) throws(NMEADecodingError) -> ZDA {
        var date: CivilDate?
        if let day = sentence.integer(1), let month = sentence.integer(2), let year = sentence.integer(3),
           sentence.field(3).count == 4 {
            date = CivilDate(year: year, month: month, day: day)
        }
        return ZDA(timeOfDay: try sentence.timeOfDay(0), date: date, localZoneHours: sentence.integer(4),
                   localZoneMinutes: sentence.integer(5))
    }
}
