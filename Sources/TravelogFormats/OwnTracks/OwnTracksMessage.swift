import Foundation
import TravelogCore

/// One OwnTracks message (a JSON object with `_type`) as read, and what it gives: a point for a
/// `location`, nothing for the other types.
///
/// A `location` needs `lat`, `lon` (degrees) and `tst` (epoch seconds of the fix; 0 is the apps'
/// "no fix" and is rejected); `acc`, `vac` (m), `alt` (m), `vel` (km/h, converted to m/s) and
/// `cog` (degrees) are optional, and -1 or absence means unknown. Numbers written as strings
/// are read (the Recorder writes the `tst` of `lwt` messages as a string).
/// Source: the OwnTracks booklet, `docs/tech/json.md`.
struct OwnTracksMessage {
    enum Key: String, CaseIterable {
        case type = "_type"
        case lat, lon, tst, acc, alt, vac, vel, cog, batt, bs
        case tid, conn, m, inregions, inrids, p, t, poi, tag
        case ssid = "SSID", bssid = "BSSID", createdAt = "created_at", id = "_id"
        static let table = JSONKeyTable(Key.self)
    }

    /// What a message gives.
    enum Outcome {
        case record(FormatRecord)
        /// A message of this `_type` that is not a location.
        case skip(String)
    }

    /// Where the message's `{` is.
    let start: SourcePosition
    var type: String?
    var latitude: (degrees: Double, position: SourcePosition)?
    var longitude: (degrees: Double, position: SourcePosition)?
    var time: (value: ParsedTimestamp, position: SourcePosition)?
    var accuracyMeters: Double?
    var altitudeMeters: Double?
    var verticalAccuracyMeters: Double?
    var speedKilometersPerHour: Double?
    var courseDegrees: Double?
    /// `batt` (percent) and `bs` (0 unknown, 1 unplugged, 2 charging, 3 full): the device's
    /// status, not the fix's; a wrong value is ignored, never a reason to reject the fix.
    var batteryPercent: Double?
    var batteryStatus: Int?
    /// `tid`, `conn`, `SSID`, `BSSID`, `m` and `inregions`: the phone's status (`PhoneStatus`), read
    /// as leniently as the battery.
    var trackerID: String?
    var connection: String?
    var wifiName: String?
    var wifiAccessPoint: String?
    var monitoringMode: Int?
    var regions: [String]?
    /// `inrids`, `p`, `t`, `created_at` and `_id`: the rest of the phone's status, read as leniently.
    var regionIDs: [String]?
    var pressureKilopascals: Double?
    var trigger: PhoneStatus.Trigger?
    var createdAt: Double?
    var messageID: String?
    /// `poi` ("Publish with POI") and `tag`: the person's words on the fix (`LocationLabel`), as
    /// leniently read: a wrong kind of value is no label, never a lost fix.
    var pointOfInterest: String?
    var tag: String?
    /// The first wrong value.
    var problem: RecordRejection?

    init(start: SourcePosition) {
        self.start = start
    }

    /// Reads a message object after its `{`, up to and including its `}`.
    /// - Parameter shift: turns the parser's positions into the file's.
    static func read(from parser: inout JSONParser, start: SourcePosition, shift: PositionShift) throws -> OwnTracksMessage {
        var message = OwnTracksMessage(start: start)
        while try parser.nextKey() {
            if try !message.readMember(from: &parser, shift: shift) { try parser.skipValue() }
        }
        return message
    }

    /// Reads the value of the member whose key the parser has just read, when it is one of the
    /// fields of a location; returns false (nothing consumed) for any other key.
    mutating func readMember(from parser: inout JSONParser, shift: PositionShift) throws -> Bool {
        guard let key = parser.key(in: Key.table) else { return false }
        do {
            switch key {
            case .type:
                type = try parser.readLenientString()
            case .lat:
                let value = try parser.readLenientDouble()
                latitude = value.map { ($0, shift(parser.tokenPosition)) }
            case .lon:
                let value = try parser.readLenientDouble()
                longitude = value.map { ($0, shift(parser.tokenPosition)) }
            case .tst:
                let value = try parser.readLenientTime()
                time = value.map { ($0, shift(parser.tokenPosition)) }
            case .batt: batteryPercent = try Self.ignoringWrong { try parser.readLenientDouble() }.flatMap { (0...100).contains($0) ? $0 : nil }
            case .bs: batteryStatus = try Self.ignoringWrong { try parser.readLenientDouble() }.flatMap { Int(exactly: $0) }
            case .tid: trackerID = try Self.ignoringWrong { try parser.readLenientString() }
            case .conn: connection = try Self.ignoringWrong { try parser.readLenientString() }
            case .ssid: wifiName = try Self.ignoringWrong { try parser.readLenientString() }
            case .bssid: wifiAccessPoint = try Self.ignoringWrong { try parser.readLenientString() }
            case .m: monitoringMode = try Self.ignoringWrong { try parser.readLenientDouble() }.flatMap { Int(exactly: $0) }
            case .inregions: regions = try parser.readLenientStrings()
            case .inrids: regionIDs = try Self.ignoringWrong { try parser.readLenientStrings() }
            case .p: pressureKilopascals = try Self.ignoringWrong { try parser.readLenientDouble() }.flatMap { PhoneStatus.pressureRange.contains($0) ? $0 : nil }
            case .t: trigger = try Self.ignoringWrong { try parser.readLenientString() }.flatMap(PhoneStatus.Trigger.init(ownTracksCode:))
            case .createdAt: createdAt = try Self.ignoringWrong { try parser.readLenientDouble() }.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
            case .id: messageID = try Self.ignoringWrong { try parser.readLenientString() }
            case .poi: pointOfInterest = try Self.ignoringWrong { try parser.readLenientString() }
            case .tag: tag = try Self.ignoringWrong { try parser.readLenientString() }
            case .acc: accuracyMeters = try parser.readLenientDouble()
            case .alt: altitudeMeters = try parser.readLenientDouble()
            case .vac: verticalAccuracyMeters = try parser.readLenientDouble()
            case .vel: speedKilometersPerHour = try parser.readLenientDouble()
            case .cog:
                courseDegrees = try parser.readLenientDouble()
                if let course = courseDegrees, course > 360 {
                    note(RecordRejection(position: shift(parser.tokenPosition), reason: .invalidValue(field: "cog", value: "\(course)")))
                }
            }
        } catch let error as JSONFieldValueError {
            let reason: RecordRejection.Reason = key == .tst
                ? .invalidTime(error.found) : .invalidValue(field: key.rawValue, value: error.found)
            note(RecordRejection(position: shift(error.position), reason: reason))
        }
        return true
    }

    /// The value `read` reads, or nil when it is of the wrong kind (consumed whole): the device's
    /// status is never a reason to refuse the fix. JSON that is not well formed still throws.
    private static func ignoringWrong<T>(_ read: () throws -> T?) throws -> T? {
        do { return try read() } catch is JSONFieldValueError { return nil }
    }

    /// The phone's status, when the message said any of it (an OwnTracks app always sends `tid`).
    var phoneStatus: PhoneStatus? {
        guard trackerID != nil || connection != nil || wifiName != nil || wifiAccessPoint != nil || monitoringMode != nil
            || regions != nil || regionIDs != nil || pressureKilopascals != nil || trigger != nil || createdAt != nil || messageID != nil
        else { return nil }
        return PhoneStatus(trackerID: trackerID, connection: connection.flatMap(PhoneStatus.Connection.init(ownTracksCode:)),
                           wifiName: wifiName, wifiAccessPoint: wifiAccessPoint,
                           monitoringMode: monitoringMode.flatMap(PhoneStatus.MonitoringMode.init(ownTracksNumber:)),
                           regions: regions ?? [], regionIDs: regionIDs ?? [], pressureKilopascals: pressureKilopascals,
                           trigger: trigger,
                           createdAt: createdAt.map { Date(timeIntervalSince1970: $0) }, messageID: messageID)
    }

    private mutating func note(_ problem: RecordRejection) {
        if self.problem == nil { self.problem = problem }
    }

    /// What the message gives, once it has been read whole.
    func outcome() -> Outcome {
        guard let type else { return .record(.rejected(problem ?? RecordRejection(position: start, reason: .missingField("_type")))) }
        guard type == "location" else { return .skip(type) }
        if let problem { return .record(.rejected(problem)) }
        guard let latitude else { return .record(.rejected(RecordRejection(position: start, reason: .missingField("lat")))) }
        guard let longitude else { return .record(.rejected(RecordRejection(position: start, reason: .missingField("lon")))) }
        guard let time else { return .record(.rejected(RecordRejection(position: start, reason: .missingField("tst")))) }
        guard time.value.secondsSince1970 > 0 else {
            return .record(.rejected(RecordRejection(position: time.position, reason: .invalidTime("\(time.value.secondsSince1970)"))))
        }
        let coordinate: Coordinate
        do throws(CoordinateError) {
            coordinate = try Coordinate(latitude: latitude.degrees, longitude: longitude.degrees)
        } catch {
            let position = if case .longitudeNotFinite = error { longitude.position } else { latitude.position }
            return .record(.rejected(RecordRejection(position: position, reason: .invalidCoordinate(error))))
        }
        let speed = speedKilometersPerHour.map { $0 >= 0 ? Units.metersPerSecond(kilometersPerHour: $0) : -1 } ?? -1
        let location = Location(coordinate: coordinate, altitudeMeters: altitudeMeters,
                                horizontalAccuracyMeters: accuracyMeters ?? -1,
                                verticalAccuracyMeters: verticalAccuracyMeters ?? -1,
                                speedMetersPerSecond: speed, courseDegrees: courseDegrees ?? -1,
                                timestamp: time.value.date, utcOffsetSeconds: time.value.utcOffsetSeconds)
        var point = FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(location))
        point.batteryPercent = batteryPercent
        point.isCharging = switch batteryStatus { case 1?: false; case 2?, 3?: true; default: nil }
        point.phoneStatus = phoneStatus
        point.labels = [pointOfInterest.flatMap { LocationLabel(kind: .pointOfInterest, text: $0) },
                        tag.flatMap { LocationLabel(kind: .tag, text: $0) }].compactMap { $0 }
        return .record(.point(point))
    }
}
