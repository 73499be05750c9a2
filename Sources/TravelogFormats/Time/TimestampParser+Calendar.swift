import TravelogCore
extension TimestampParser {
    /// Walks the calendar form `yyyy-MM-dd HH:mm[:ss[.f]] [zone]` over trimmed bytes.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int
        let end: Int

        mutating func parseCalendar() throws(TimestampError) -> ParsedTimestamp {
            let year = try number(digits: 4, expected: "a four-digit year")
            let separator = index < end ? bytes[index] : 0
            guard separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/") else {
                throw .unexpected(atByte: index, expected: "'-' after the year")
            }
            index += 1
            let month = try number(digits: 2, expected: "a two-digit month")
            try expect(separator, "'\(Character(Unicode.Scalar(separator)))' after the month")
            let day = try number(digits: 2, expected: "a two-digit day")
            guard (1...12).contains(month) else { throw .outOfRange(.month, value: month) }
            guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { throw .outOfRange(.day, value: day) }

            // Date and time are joined by one 'T' or by spaces.
            let joiner = index < end ? bytes[index] : 0
            if joiner == UInt8(ascii: "T") || joiner == UInt8(ascii: "t") {
                index += 1
            } else if TimestampParser.isBlank(joiner) {
                while index < end, TimestampParser.isBlank(bytes[index]) { index += 1 }
            } else {
                throw .unexpected(atByte: index, expected: "'T' or a space, then the time of day")
            }

            let hour = try number(digits: 2, expected: "a two-digit hour")
            try expect(UInt8(ascii: ":"), "':' after the hour")
            let minute = try number(digits: 2, expected: "two-digit minutes")
            var second = 0, nanoseconds = 0
            if index < end, bytes[index] == UInt8(ascii: ":") {
                index += 1
                second = try number(digits: 2, expected: "two-digit seconds")
                if index < end, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    nanoseconds = try TimestampParser.fractionNanoseconds(bytes, &index, end)
                }
            }
            guard hour <= 23 else { throw .outOfRange(.hour, value: hour) }
            guard minute <= 59 else { throw .outOfRange(.minute, value: minute) }
            guard second <= 60 else { throw .outOfRange(.second, value: second) }

            while index < end, TimestampParser.isBlank(bytes[index]) { index += 1 }
            let zone = try parseZone()
            guard index == end else { throw .unexpected(atByte: index, expected: "the end of the time") }

            let offsetSeconds = if case .offset(let seconds) = zone { seconds } else { 0 }
            if second == 60 {
                // A leap second is inserted at 23:59:60 UTC and nowhere else.
                let utcMinuteOfDay = ((hour * 60 + minute - offsetSeconds / 60) % 1440 + 1440) % 1440
                guard utcMinuteOfDay == 1439 else { throw .outOfRange(.second, value: second) }
            }
            let days = Int64(CivilDate.daysSince1970(year: year, month: month, day: day))
            let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            return ParsedTimestamp(secondsSince1970: local - Int64(offsetSeconds), nanoseconds: nanoseconds, zone: zone)
        }

        /// `Z`, `UTC`, `GMT`, `±hh[[:]mm]`, or nothing.
        mutating func parseZone() throws(TimestampError) -> ParsedTimestamp.Zone {
            guard index < end else { return .unspecified }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
                return .utc
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                index += 1
                let hours = try number(digits: 2, expected: "two-digit offset hours")
                var minutes = 0
                if index < end, bytes[index] == UInt8(ascii: ":") {
                    index += 1
                    minutes = try number(digits: 2, expected: "two-digit offset minutes")
                } else if index < end, TimestampParser.isDigit(bytes[index]) {
                    minutes = try number(digits: 2, expected: "two-digit offset minutes")
                }
                guard hours <= 23 else { throw .outOfRange(.offsetHours, value: hours) }
                guard minutes <= 59 else { throw .outOfRange(.offsetMinutes, value: minutes) }
                let seconds = hours * 3600 + minutes * 60
                if byte == UInt8(ascii: "-") {
                    // RFC 3339 4.3: -00:00 is UTC with the local offset unknown.
                    return seconds == 0 ? .utc : .offset(seconds: -seconds)
                }
                return .offset(seconds: seconds)
            default:
                if matchesLetters("UTC") || matchesLetters("GMT") {
                    index += 3
                    return .utc
                }
                throw .unexpected(atByte: index, expected: "a zone (Z, ±hh:mm) or the end of the time")
            }
        }

        /// Exactly `digits` decimal digits at the cursor, consumed.
        mutating func number(digits: Int, expected: @autoclosure () -> String) throws(TimestampError) -> Int {
            var value = 0
            for offset in 0..<digits {
                guard index + offset < end, TimestampParser.isDigit(bytes[index + offset]) else {
                    throw .unexpected(atByte: index + offset, expected: expected())
                }
                value = value * 10 + Int(bytes[index + offset] &- 0x30)
            }
            index += digits
            return value
        }

        mutating func expect(_ byte: UInt8, _ expected: @autoclosure () -> String) throws(TimestampError) {
            guard index < end, bytes[index] == byte else { throw .unexpected(atByte: index, expected: expected()) }
            index += 1
        }

        /// Whether the next bytes are these ASCII letters, in either case.
        func matchesLetters(_ letters: StaticString) -> Bool {
            guard end - index >= letters.utf8CodeUnitCount else { return false }
            for offset in 0..<letters.utf8CodeUnitCount
            where bytes[index + offset] | 0x20 != letters.utf8Start[offset] | 0x20 {
                return false
            }
            return true
        }
    }
}
