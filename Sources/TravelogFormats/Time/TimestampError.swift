/// Why a text is not a timestamp. Offsets are byte offsets into the text as given (0-based).
public enum TimestampError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A field of a date or time.
    public enum Field: String, Hashable, Sendable {
        case year, month, day, hour, minute, second, nanosecond
        case offsetHours = "offset hours"
        case offsetMinutes = "offset minutes"
    }

    /// Nothing but white space.
    case empty
    /// A character that does not belong where it is, or the text ended too early.
    case unexpected(atByte: Int, expected: String)
    /// A field whose value cannot be: month 13, 30 February, hour 25, a leap second that is not
    /// at the end of a UTC day.
    case outOfRange(Field, value: Int)
    /// A fraction of a second with more than 9 digits (finer than a nanosecond).
    case tooManyFractionDigits(atByte: Int)
    /// An epoch number beyond the year 9999.
    case epochOutOfRange

    public var description: String {
        switch self {
        case .empty: "the time is empty"
        case .unexpected(let offset, let expected): "expected \(expected) at byte \(offset) of the time"
        case .outOfRange(let field, let value): "\(field.rawValue) \(value) cannot be"
        case .tooManyFractionDigits(let offset): "more than 9 fraction digits at byte \(offset) of the time"
        case .epochOutOfRange: "the epoch number is beyond the year 9999"
        }
    }
}
