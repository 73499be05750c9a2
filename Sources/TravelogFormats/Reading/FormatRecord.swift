import Foundation
import TravelogCore

/// One thing a reader found in a file, in file order.
public enum FormatRecord: Hashable, Sendable {
    /// A point of a track, a route or a waypoint.
    case point(FormatPoint)
    /// A stay that the file itself describes (Google semantic history and Timeline visits,
    /// Overland visit actions), kept with its source.
    case visit(FormatVisit)
    /// A record that is wrong (latitude 200, an impossible date, no time): counted and reported,
    /// never stored.
    case rejected(RecordRejection)
}

/// A point as a file gives it. Points without a time can't be history, but they still count for
/// the shape of a track (its length, its bounds).
public struct FormatPoint: Hashable, Sendable {
    /// What the point belongs to.
    public enum Kind: Hashable, Sendable {
        /// A recorded track point; `track` and `segment` count from 0 in file order, so consecutive
        /// points of one segment were recorded one after the other.
        case track(track: Int, segment: Int)
        /// A planned route point (not where someone went).
        case route(route: Int)
        /// A single marked place.
        case waypoint
    }

    /// Where and when: a full fix when the file gave a time, a bare position otherwise.
    public enum Position: Hashable, Sendable {
        case fix(Location)
        case untimed(Coordinate, altitudeMeters: Double?)

        public var coordinate: Coordinate {
            switch self {
            case .fix(let location): location.coordinate
            case .untimed(let coordinate, _): coordinate
            }
        }

        public var altitudeMeters: Double? {
            switch self {
            case .fix(let location): location.altitudeMeters
            case .untimed(_, let altitude): altitude
            }
        }

        /// The fix, when the file gave a time.
        public var location: Location? {
            if case .fix(let location) = self { return location }
            return nil
        }
    }

    public var kind: Kind
    public var position: Position
    /// A name the file gave the point (GPX `name`, a KML Placemark's name).
    public var name: String?
    /// The phone's battery when it took the fix, percent 0–100 (OwnTracks `batt`, Overland
    /// `battery_level`), and whether it was charging or full (`bs`, `battery_state`), when given.
    /// The device's status carried along (`DeviceStore.recordReport`), not part of the point:
    /// two points are equal whatever the battery said.
    public var batteryPercent: Double?
    public var isCharging: Bool?
    /// What an OwnTracks phone said of itself with the point (tracker ID, connection, Wi-Fi, mode,
    /// regions): the device's status too, not the point's.
    public var phoneStatus: PhoneStatus?
    /// What the person wrote on the point as they sent it (OwnTracks `poi` and `tag`); a waypoint's
    /// `name` is one too (`keptLabels`). Not part of the point's equality either.
    public var labels: [LocationLabel] = []

    /// The labels to keep with the point's fix: `labels`, and a waypoint's name.
    public var keptLabels: [LocationLabel] {
        guard case .waypoint = kind, let name, let label = LocationLabel(kind: .waypoint, text: name) else { return labels }
        return labels + [label]
    }

    public init(kind: Kind, position: Position, name: String? = nil) {
        self.kind = kind
        self.position = position
        self.name = name
    }

    public static func == (lhs: FormatPoint, rhs: FormatPoint) -> Bool {
        lhs.kind == rhs.kind && lhs.position == rhs.position && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(position)
        hasher.combine(name)
    }
}

/// A stay described by the file itself.
public struct FormatVisit: Hashable, Sendable {
    public var arrival: Date
    /// `nil` while the visit is still going on, or when the file does not say.
    public var departure: Date?
    public var coordinate: Coordinate
    /// Uncertainty of the center, metres; `nil` when unknown.
    public var radiusMeters: Double?
    public var name: String?
    public var address: String?
    /// The source's own identifier of the place (a Google place id).
    public var placeIdentifier: String?

    public init(arrival: Date, departure: Date?, coordinate: Coordinate, radiusMeters: Double? = nil,
                name: String? = nil, address: String? = nil, placeIdentifier: String? = nil) {
        self.arrival = arrival
        self.departure = departure
        self.coordinate = coordinate
        self.radiusMeters = radiusMeters
        self.name = name
        self.address = address
        self.placeIdentifier = placeIdentifier
    }
}

/// Why one record of a file was not taken, and where it is.
public struct RecordRejection: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The coordinate cannot exist.
        case invalidCoordinate(CoordinateError)
        /// A time that does not parse or cannot be (month 13, the year 1899 from a GPS week rollover).
        case invalidTime(String)
        /// A required field is absent.
        case missingField(String)
        /// A field holds something that is not what it should be.
        case invalidValue(field: String, value: String)
        /// An NMEA sentence whose checksum does not match.
        case badChecksum(expected: UInt8, found: UInt8)
        /// A row with another number of fields than the header (CSV) or the format (GeoLife) has.
        case wrongFieldCount(expected: Int, found: Int)
        /// A record of a line-based log whose JSON is not well-formed (an OwnTracks `.rec` line cut
        /// short); the rest of the file is still read.
        case invalidJSON(JSONSyntaxError.Reason)
        /// A value no device can report (an altitude of 1e20 m, a time in 1970), as the write path's
        /// limits say.
        case implausible(String)

        public var description: String {
            switch self {
            case .invalidCoordinate(let error): error.description
            case .invalidTime(let text): "'\(text)' is not a valid time"
            case .missingField(let field): "missing \(field)"
            case .invalidValue(let field, let value): "\(field) '\(value)' is not valid"
            case .badChecksum(let expected, let found):
                "checksum is \(String(format: "%02X", found)), expected \(String(format: "%02X", expected))"
            case .wrongFieldCount(let expected, let found): "\(found) fields where \(expected) were expected"
            case .invalidJSON(let reason): "invalid JSON: \(reason)"
            case .implausible(let reason): reason
            }
        }
    }

    public var position: SourcePosition
    public var reason: Reason

    public init(position: SourcePosition, reason: Reason) {
        self.position = position
        self.reason = reason
    }

    public var description: String { "\(position): \(reason)" }
}
