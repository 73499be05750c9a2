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

    /// The instant (Foundation keeps it as a `Double`: sub-microsecond digits may round).
    ///
    /// Built the way every reader builds a date from a count of milliseconds,
    /// `Date(timeIntervalSince1970: milliseconds / 1000)`, so that the same time read from two
    /// formats (an ISO text here, `timestampMs` there) is the same `Date` to the last bit.
    public var date: Date {
        if nanoseconds % 1_000_000 == 0 {
            let milliseconds = secondsSince1970 * 1000 + Int64(nanoseconds / 1_000_000)
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        return Date(timeIntervalSince1970: Double(secondsSince1970) + Double(nanoseconds) / 1e9)
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
