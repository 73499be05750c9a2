import Foundation

/// An instant read from text, with the zone the text wrote it in.
public struct ParsedTimestamp: Hashable, Sendable, CustomStringConvertible {
    /// What the text said about its zone.
    public enum Zone: Hashable, Sendable {
        /// No designator: the time is taken as UTC.
        case unspecified
        /// `Z`, `UTC`, `GMT`, or `-00:00` (RFC 3339: UTC, local offset unknown).
        case utc
        /// A numeric offset such as `+02:00`, in seconds east of Greenwich (`+00:00` included).
        case offset(seconds: Int)
    }

    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSince1970: Int64
    /// Nanoseconds past `secondsSince1970`, 0–999 999 999.
    public var nanoseconds: Int
    public var zone: Zone

    public init(secondsSince1970: Int64, nanoseconds: Int = 0, zone: Zone = .unspecified) {
        self.secondsSince1970 = secondsSince1970
        self.nanoseconds = nanoseconds
        self.zone = zone
    }

    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    static let referenceDateSince1970: Int64 = 978_307_200

    /// The instant (Foundation keeps it as a `Double`: sub-microsecond digits may round).
    public var date: Date {
        Date(timeIntervalSinceReferenceDate: Double(secondsSince1970 - Self.referenceDateSince1970)
             + Double(nanoseconds) / 1e9)
    }

    /// The offset to keep in `Location.utcOffsetSeconds`: the written numeric offset, `nil` for UTC
    /// designators and for times without a zone.
    public var utcOffsetSeconds: Int? {
        if case .offset(let seconds) = zone { return seconds }
        return nil
    }

    public var description: String {
        let zoneText = switch zone {
        case .unspecified: "no zone"
        case .utc: "UTC"
        case .offset(let seconds): "offset \(seconds) s"
        }
        return "\(secondsSince1970) s + \(nanoseconds) ns since 1970 (\(zoneText))"
    }
}
