import Foundation
import TravelogCore

extension GPSDReport {
    private enum Member: Sendable {
        case className, mode, status, time, lat, lon, altMSL, alt, track, magtrack, speed
        case eph, epx, epy, epv, eps, epd, hdop, pdop, nSat, uSat, satellites, heading, mheading
    }

    private static let members = JSONKeyTable<Member>([
        ("class", .className), ("mode", .mode), ("status", .status), ("time", .time), ("lat", .lat), ("lon", .lon),
        ("altMSL", .altMSL), ("alt", .alt), ("track", .track), ("magtrack", .magtrack), ("speed", .speed),
        ("eph", .eph), ("epx", .epx), ("epy", .epy), ("epv", .epv), ("eps", .eps), ("epd", .epd),
        ("hdop", .hdop), ("pdop", .pdop), ("nSat", .nSat), ("uSat", .uSat), ("satellites", .satellites),
        ("heading", .heading), ("mheading", .mheading),
    ])

    /// The classes whose members are read; gpsd sends `class` first, so the others are skipped whole.
    private static let decodedClasses: Set<String> = ["TPV", "SKY", "ATT"]

    /// Decodes the reports of one line of gpsd output; a line may hold several objects
    /// (`{"class":"VERSION",…}{"class":"DEVICES",…}`).
    /// - Throws: `JSONSyntaxError` or `JSONTypeMismatchError` when the line is not gpsd JSON.
    public static func decodeLine(_ bytes: [UInt8]) throws -> [GPSDReport] {
        var reports: [GPSDReport] = []
        for object in topLevelObjects(bytes) {
            var parser = JSONParser(bytes: object)
            let event = try parser.next()
            guard event == .objectStart else { throw JSONTypeMismatchError(expected: .object, found: event, at: parser.tokenPosition) }
            reports.append(try decodeObject(&parser))
            _ = try parser.next()  // the end of the object's bytes, or a syntax error for anything after it
        }
        return reports
    }

    /// The line cut after each top-level `}` (outside strings): gpsd writes objects back to back
    /// with nothing between them (`{…}{…}`), which a JSON parser takes for trailing garbage.
    static func topLevelObjects(_ bytes: [UInt8]) -> [[UInt8]] {
        var objects: [[UInt8]] = []
        var depth = 0, start = 0, inString = false, escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    objects.append(Array(bytes[start...index]))
                    start = index + 1
                }
            default: break
            }
        }
        let rest = bytes[start...].drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        if !rest.isEmpty { objects.append(Array(bytes[start...])) }
        return objects
    }

    /// Decodes one object whose `{` has been read.
    static func decodeObject(_ parser: inout JSONParser) throws -> GPSDReport {
        var name = ""
        var tpv = TPV(), sky = SKY(), att = ATT()
        while try parser.nextKey() {
            guard let member = parser.key(in: members), name.isEmpty || decodedClasses.contains(name) || member == .className else {
                try parser.skipValue()
                continue
            }
            switch member {
            case .className: name = try parser.readString()
            case .mode: tpv.mode = Int(try parser.readInt64())
            case .status: tpv.status = Int(try parser.readInt64())
            case .time:
                // TPV and ATT times are ISO 8601 strings; other classes may send numbers.
                guard try parser.next() == .string else { continue }
                let date = try? TimestampParser.parse(parser.stringValue).date
                tpv.time = date
                att.time = date
            case .lat: tpv.latitudeDegrees = try parser.readDouble()
            case .lon: tpv.longitudeDegrees = try parser.readDouble()
            case .altMSL: tpv.altitudeMSLMeters = try parser.readDouble()
            case .alt:
                let value = try parser.readDouble()
                tpv.altitudeMSLMeters = tpv.altitudeMSLMeters ?? value
            case .track: tpv.trackDegrees = try parser.readDouble()
            case .magtrack: tpv.magneticTrackDegrees = try parser.readDouble()
            case .speed: tpv.speedMetersPerSecond = try parser.readDouble()
            case .eph: tpv.horizontalErrorMeters = try parser.readDouble()
            case .epx: tpv.longitudeErrorMeters = try parser.readDouble()
            case .epy: tpv.latitudeErrorMeters = try parser.readDouble()
            case .epv: tpv.verticalErrorMeters = try parser.readDouble()
            case .eps: tpv.speedErrorMetersPerSecond = try parser.readDouble()
            case .epd: tpv.trackErrorDegrees = try parser.readDouble()
            case .hdop: sky.horizontalDilution = try parser.readDouble()
            case .pdop: sky.positionDilution = try parser.readDouble()
            case .nSat: sky.satellitesSeen = Int(try parser.readInt64())
            case .uSat: sky.satellitesUsed = Int(try parser.readInt64())
            case .satellites: try parser.skipValue()
            case .heading: att.trueHeadingDegrees = try parser.readDouble()
            case .mheading: att.magneticHeadingDegrees = try parser.readDouble()
            }
        }
        switch name {
        case "TPV": return .tpv(tpv)
        case "SKY": return .sky(sky)
        case "ATT": return .att(att)
        default: return .other(className: name)
        }
    }
}
