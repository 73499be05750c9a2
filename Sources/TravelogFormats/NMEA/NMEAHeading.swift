/// A heading sentence: where the vessel or device points (not where it moves, which RMC and VTG
/// give). Decoded over the same `NMEASentence` fields as the fix sentences.
///
/// - HDT (`$HEHDT,274.07,T`): true heading, degrees.
/// - THS (`$GPTHS,274.07,A`): true heading and a mode (A autonomous, E estimated, M manual,
///   S simulator, V not valid: `nil` for V).
/// - HDG (`$HCHDG,98.3,0.0,E,12.6,W`): magnetic sensor heading, deviation and variation (E
///   positive). The magnetic heading is sensor + deviation; the variation is kept for reference
///   (Travelog's true heading uses the World Magnetic Model's declination instead).
/// Source: NMEA 0183 v4.11 as summarised by gpsd's `NMEA Revealed` (HDT, THS, HDG).
public struct NMEAHeading: Hashable, Sendable {
    /// Which kind of north the heading is from.
    public enum Reference: Hashable, Sendable { case trueNorth, magneticNorth }

    public var headingDegrees: Double
    public var reference: Reference
    /// HDG's magnetic variation, degrees east; `nil` when absent.
    public var variationDegrees: Double?

    /// Decodes an HDT, THS or HDG sentence (any talker); `nil` for other types, an empty heading
    /// or a THS marked not valid.
    public init?(_ sentence: NMEASentence) {
        guard !sentence.isProprietary else { return nil }
        guard let decoded = sentence.withFields({ fields -> NMEAHeading? in
            switch sentence.type {
            case "HDT":
                return fields.decimal(0).map { NMEAHeading(headingDegrees: $0, reference: .trueNorth, variationDegrees: nil) }
            case "THS":
                guard fields.character(1) != UInt8(ascii: "V") else { return nil }
                return fields.decimal(0).map { NMEAHeading(headingDegrees: $0, reference: .trueNorth, variationDegrees: nil) }
            case "HDG":
                guard let sensor = fields.decimal(0) else { return nil }
                let deviation = Self.signed(fields.decimal(1), fields.character(2)) ?? 0
                return NMEAHeading(headingDegrees: sensor + deviation, reference: .magneticNorth,
                                   variationDegrees: Self.signed(fields.decimal(3), fields.character(4)))
            default:
                return nil
            }
        }) else { return nil }
        self = decoded
    }

    public init(headingDegrees: Double, reference: Reference, variationDegrees: Double?) {
        self.headingDegrees = headingDegrees
        self.reference = reference
        self.variationDegrees = variationDegrees
    }

    private static func signed(_ value: Double?, _ direction: UInt8?) -> Double? {
        guard let value else { return nil }
        return direction == UInt8(ascii: "W") ? -value : value
    }
}
