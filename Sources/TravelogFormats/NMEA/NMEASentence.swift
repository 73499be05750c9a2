/// One NMEA 0183 sentence: `$` (or `!` for encapsulated data such as AIS) + address + comma
/// separated fields + an optional `*hh` checksum.
///
/// The address is a two-letter talker and a sentence type (`GPGGA`: talker `GP`, type `GGA`;
/// any talker is accepted: `GN`, `GL`, `GA`, `GB`, `BD`, `GQ`, `GI`, `HE`…), or `P` + a maker's
/// code for proprietary sentences (`PGRME`). The fields are kept as byte ranges of the line.
/// Source: the NMEA 0183 sentence structure, as summarised in PROTOCOLS.md ("NMEA 0183").
public struct NMEASentence: Sendable {
    /// The bytes that may open a sentence.
    public static let parametricStart = UInt8(ascii: "$")
    public static let encapsulatedStart = UInt8(ascii: "!")
    static let checksumDelimiter = UInt8(ascii: "*")
    static let fieldDelimiter = UInt8(ascii: ",")
    static let space = UInt8(ascii: " ")

    /// Who sent it: `GP`, `GN`, `BD`…, or `P` for a proprietary sentence.
    public let talker: String
    /// The sentence type: `GGA`, `RMC`…; for a proprietary sentence, the maker's code and type (`GRME`).
    public let type: String
    /// Whether the address starts with `P` (a maker's own sentence, not decoded here).
    public var isProprietary: Bool { talker == "P" }
    /// Whether the sentence carried a checksum (it matched, or parsing would have failed).
    public let hasChecksum: Bool

    private let bytes: [UInt8]
    /// Ranges in `bytes` of the data fields, after the address.
    private let fieldRanges: [Range<Int>]

    /// The number of data fields (the address is not one).
    public var fieldCount: Int { fieldRanges.count }

    /// Field `index` (0 = the first after the address) with surrounding spaces removed; empty when
    /// the field is empty or the sentence has fewer fields (NMEA: an empty field means no data).
    public func field(_ index: Int) -> ArraySlice<UInt8> {
        guard index >= 0, index < fieldRanges.count else { return [] }
        var slice = bytes[fieldRanges[index]]
        while let first = slice.first, first == Self.space { slice = slice.dropFirst() }
        while let last = slice.last, last == Self.space { slice = slice.dropLast() }
        return slice
    }

    /// Field `index` as text (for messages).
    public func text(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

    /// Runs `body` with a view of the fields over the sentence's bytes in place.
    func withFields<Result, Failure: Error>(_ body: (NMEAFields) throws(Failure) -> Result) throws(Failure) -> Result {
        try bytes.withUnsafeBufferPointer { (bytes) throws(Failure) -> Result in
            try fieldRanges.withUnsafeBufferPointer { (ranges) throws(Failure) -> Result in
                try body(NMEAFields(bytes: bytes, ranges: ranges))
            }
        }
    }

    /// What one line of an NMEA log holds.
    public enum ParseResult: Sendable {
        /// A sentence whose checksum matches or that has none.
        case sentence(NMEASentence)
        /// Something that is not an NMEA sentence (a comment, gpsd JSON, binary noise): skipped.
        case notNMEA
        /// A sentence whose checksum is not the XOR of its bytes; `expected` is what the bytes give.
        case badChecksum(expected: UInt8, found: UInt8)
        /// A sentence whose `*` is followed by something that is not two hexadecimal digits.
        case malformedChecksum(String)
    }

    /// Parses the sentence that starts at the first `$` or `!` of `line` at or after `start`.
    /// Bytes before it are noise and ignored; a `#` as the first non-blank byte makes the line a
    /// comment. A `*` followed by nothing counts as no checksum.
    /// - Returns: what was found, the index of its `$` or `!` (`start` when there is none), and
    ///   where a further sentence glued after this one's checksum starts (`nil` when none does).
    /// - Complexity: O(n) in the line's length.
    public static func parse(_ line: [UInt8], from start: Int = 0) -> (result: ParseResult, start: Int, next: Int?) {
        var index = start
        while index < line.count, line[index] == space || line[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < line.count, line[index] != UInt8(ascii: "#") else { return (.notNMEA, start, nil) }
        guard let opening = line[index...].firstIndex(where: { $0 == parametricStart || $0 == encapsulatedStart }) else {
            return (.notNMEA, start, nil)
        }
        let (result, next) = parseSentence(line, opening: opening)
        return (result, opening, next)
    }

    /// Parses the sentence whose `$` or `!` is at `opening`.
    private static func parseSentence(_ line: [UInt8], opening: Int) -> (result: ParseResult, next: Int?) {
        // The address: letters and digits up to the first comma or '*' or the end.
        let addressStart = opening + 1
        var addressEnd = addressStart
        while addressEnd < line.count, isAddressByte(line[addressEnd]) { addressEnd += 1 }
        let addressLength = addressEnd - addressStart
        guard addressLength >= 4, addressLength <= 10, isUppercaseLetter(line[addressStart]),
              addressEnd == line.count || line[addressEnd] == fieldDelimiter || line[addressEnd] == checksumDelimiter else {
            return (.notNMEA, nil)
        }
        // Proprietary: 'P' and a maker's code; otherwise two letters of talker and three of type.
        let proprietary = line[addressStart] == UInt8(ascii: "P")
        guard proprietary || (addressLength == 5 && isUppercaseLetter(line[addressStart + 1])) else {
            return (.notNMEA, nil)
        }

        // The body runs to the first '*'; the checksum is the XOR of its bytes after the start byte.
        var checksum: UInt8 = 0
        var bodyEnd = addressStart
        while bodyEnd < line.count, line[bodyEnd] != checksumDelimiter {
            checksum ^= line[bodyEnd]
            bodyEnd += 1
        }
        var hasChecksum = false
        var next: Int?
        if bodyEnd < line.count {
            let digitsStart = bodyEnd + 1
            var digitsEnd = digitsStart
            while digitsEnd < line.count, digitsEnd - digitsStart < 2, hexValue(line[digitsEnd]) != nil { digitsEnd += 1 }
            let rest = line[digitsEnd...].drop { $0 == space || $0 == UInt8(ascii: "\t") }
            if digitsEnd - digitsStart == 2, let high = hexValue(line[digitsStart]), let low = hexValue(line[digitsStart + 1]) {
                let found = high << 4 | low
                if let glued = rest.first, glued == parametricStart || glued == encapsulatedStart { next = rest.startIndex }
                guard found == checksum else { return (.badChecksum(expected: checksum, found: found), next) }
                hasChecksum = true
            } else if digitsEnd > digitsStart || !rest.isEmpty {
                let written = String(decoding: line[digitsStart...].prefix(8), as: UTF8.self)
                return (.malformedChecksum(written), nil)
            }
        }

        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(20)
        if addressEnd < bodyEnd {
            var fieldStart = addressEnd + 1
            while let comma = line[fieldStart..<bodyEnd].firstIndex(of: fieldDelimiter) {
                ranges.append(fieldStart..<comma)
                fieldStart = comma + 1
            }
            ranges.append(fieldStart..<bodyEnd)
        }
        let talkerLength = proprietary ? 1 : 2
        let sentence = NMEASentence(
            talker: String(decoding: line[addressStart..<(addressStart + talkerLength)], as: UTF8.self),
            type: String(decoding: line[(addressStart + talkerLength)..<addressEnd], as: UTF8.self),
            hasChecksum: hasChecksum, bytes: line, fieldRanges: ranges)
        return (.sentence(sentence), next)
    }

    private static func isUppercaseLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func isAddressByte(_ byte: UInt8) -> Bool {
        isUppercaseLetter(byte) || (byte >= NMEANumber.zero && byte <= NMEANumber.nine)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case NMEANumber.zero...NMEANumber.nine: byte - NMEANumber.zero
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
