/// Times that JSON writes as numbers (`"timestamp": 1609459201`, `"tst": 1709283789`,
/// `"time_long": 1730626211331`).
extension TimestampParser {
    /// Reads an epoch number the way `parse(_:)` reads epoch text: seconds since 1970, or
    /// milliseconds when the integer part is at least `epochMillisecondsThreshold` (2^31 − 1).
    /// - Parameters:
    ///   - value: the number as the JSON parser rounded it.
    ///   - exactInteger: the exact value when the number is an integer within Int64 (preferred).
    /// - Throws: `TimestampError.epochOutOfRange` for a negative, non-finite or too large number.
    public static func parse(epochNumber value: Double, exactInteger: Int64?) throws(TimestampError) -> ParsedTimestamp {
        if let integer = exactInteger {
            guard integer >= 0 else { throw .epochOutOfRange }
            if integer >= epochMillisecondsThreshold {
                guard integer <= maximumSecondsSince1970 * 1000 + 999 else { throw .epochOutOfRange }
                return ParsedTimestamp(secondsSince1970: integer / 1000,
                                       nanoseconds: Int(integer % 1000) * 1_000_000, zone: .utc)
            }
            return ParsedTimestamp(secondsSince1970: integer, zone: .utc)
        }
        guard value.isFinite, value >= 0 else { throw .epochOutOfRange }
        let isMilliseconds = value >= Double(epochMillisecondsThreshold)
        let seconds = isMilliseconds ? value / 1000 : value
        guard seconds <= Double(maximumSecondsSince1970) else { throw .epochOutOfRange }
        let whole = seconds.rounded(.down)
        let nanoseconds = min(Int(((seconds - whole) * 1e9).rounded()), 999_999_999)
        return ParsedTimestamp(secondsSince1970: Int64(whole), nanoseconds: nanoseconds, zone: .utc)
    }
}
