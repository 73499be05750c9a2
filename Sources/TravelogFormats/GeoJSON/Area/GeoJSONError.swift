import TravelogCore
/// Why a GeoJSON text could not be read as an area. Every case but ``invalidJSON`` says where,
/// as a path from the root such as `$.features[2].geometry.coordinates[0][3]`.
public enum GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of JSON value a member may be expected to hold.
    public enum ValueKind: String, Sendable {
        case object, array, string, number
    }

    /// The text is not JSON (RFC 8259).
    case invalidJSON
    /// A member that RFC 7946 requires is absent, such as `type`, `coordinates` or `geometry`.
    case missingMember(name: String, path: String)
    /// A value has the wrong JSON kind (or is null where a value is required).
    case wrongKind(path: String, expected: ValueKind)
    /// The `type` is none of RFC 7946's nine (they are case-sensitive).
    case unknownType(String, path: String)
    /// A GeoJSON type where RFC 7946 forbids it, such as a Feature inside a geometry.
    case typeNotAllowedHere(String, path: String)
    /// A geometry with no area (Point, LineString and their Multi forms).
    case notAnArea(String, path: String)
    /// A position with fewer than two numbers (RFC 7946 §3.1.1).
    case positionTooShort(path: String, count: Int)
    /// A position's longitude (its first number) is outside [-180, 180], in degrees.
    case longitudeOutOfRange(path: String, degrees: Double)
    /// A position's latitude (its second number) is outside [-90, 90], in degrees.
    case latitudeOutOfRange(path: String, degrees: Double)
    /// A linear ring with fewer than four positions (RFC 7946 §3.1.6).
    case ringTooShort(path: String, positionCount: Int)
    /// A linear ring whose last position differs from its first (RFC 7946 §3.1.6).
    case ringNotClosed(path: String)

    public var description: String {
        switch self {
        case .invalidJSON: "not valid JSON"
        case let .missingMember(name, path): "\(path): missing member \"\(name)\""
        case let .wrongKind(path, expected): "\(path): expected \(expected.rawValue)"
        case let .unknownType(type, path): "\(path): \"\(type)\" is not a GeoJSON type"
        case let .typeNotAllowedHere(type, path): "\(path): a \(type) is not allowed here"
        case let .notAnArea(type, path): "\(path): a \(type) has no area"
        case let .positionTooShort(path, count): "\(path): a position needs 2 numbers, found \(count)"
        case let .longitudeOutOfRange(path, degrees): "\(path): longitude \(degrees) is outside [-180, 180]"
        case let .latitudeOutOfRange(path, degrees): "\(path): latitude \(degrees) is outside [-90, 90]"
        case let .ringTooShort(path, count): "\(path): a linear ring needs 4 positions, found \(count)"
        case .ringNotClosed(let path): "\(path): a linear ring must end where it starts"
        }
    }
}
