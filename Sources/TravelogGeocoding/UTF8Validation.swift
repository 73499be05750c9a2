/// Checks that bytes are well-formed UTF-8 without building a `String`.
enum UTF8Validation {
    /// Whether `bytes[range]` is well-formed UTF-8: no stray continuation bytes, no overlong
    /// forms, no surrogates, nothing above U+10FFFF, no sequence cut by the end of the range.
    /// Source: The Unicode Standard, §3.9, table 3-7 "Well-Formed UTF-8 Byte Sequences".
    /// - Complexity: O(range.count).
    static func isWellFormed(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        let end = range.upperBound
        func continuation(_ index: Int, _ allowed: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index < end && allowed.contains(bytes[index])
        }
        while i < end {
            let lead = bytes[i]
            switch lead {
            case 0x00...0x7F: i += 1
            case 0xC2...0xDF:
                guard continuation(i + 1) else { return false }
                i += 2
            case 0xE0...0xEF:
                let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
                guard continuation(i + 1, second), continuation(i + 2) else { return false }
                i += 3
            case 0xF0...0xF4:
                let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                guard continuation(i + 1, second), continuation(i + 2), continuation(i + 3) else { return false }
                i += 4
            default: return false
            }
        }
        return true
    }
}
