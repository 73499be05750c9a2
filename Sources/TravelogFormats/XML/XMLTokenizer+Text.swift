#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension XMLTokenizer {
    /// Character data from `cursor` to the next `<`. A run that fills the whole buffer is
    /// reported in parts, each cut where it splits no reference, CR LF or UTF-8 sequence.
    /// `nil`: a whitespace-only run skipped by option.
    mutating func characterData() throws -> XMLEvent? {
        let table = characterClasses
        var start = cursor
        var i = cursor
        var needsDecoding = false
        while true {
            let b = input.bytes
            while table[Int(b[i])] & XMLCharacterClass.textStop == 0 { i &+= 1 }
            if b[i] != UInt8(ascii: "<") {
                needsDecoding = true
                i += 1
                continue
            }
            if i < input.end || input.isExhausted { break }
            if start == 0, input.isFull {
                let split = splitPoint(from: start, to: i, keepingLast: 0, referencesMatter: true)
                return try report(from: start, to: split, mode: needsDecoding ? .text : nil, isSkippable: false)
            }
            let shift = try refill(keeping: start)
            start -= shift
            i -= shift
        }
        return try report(from: start, to: i, mode: needsDecoding ? .text : nil, isSkippable: true)
    }

    /// The content of a CDATA section from `cursor` (just after `<![CDATA[`, or where its last
    /// part ended) to `]]>`, in parts when it fills the buffer. `nil`: an empty section.
    mutating func continueCDATA() throws -> XMLEvent? {
        var start = cursor
        var scan = cursor
        while true {
            let b = input.bytes
            let end = input.end
            if let found = memchr(b + scan, Int32(UInt8(ascii: "]")), end - scan) {
                let bracket = UnsafeRawPointer(found) - UnsafeRawPointer(b)
                if bracket + 2 < end {
                    if b[bracket + 1] == UInt8(ascii: "]"), b[bracket + 2] == UInt8(ascii: ">") {
                        isInCDATA = false
                        let event = try report(from: start, to: bracket, mode: carriageReturn(in: start..<bracket) ? .cdata : nil, isSkippable: false)
                        cursor = bracket + 3
                        return event
                    }
                    scan = bracket + 1
                    continue
                }
                scan = bracket
            } else {
                scan = end
            }
            if input.isExhausted { throw unexpectedEnd(inside: .cdataSection) }
            if start == 0, input.isFull {
                let split = splitPoint(from: start, to: end, keepingLast: 2, referencesMatter: false)
                return try report(from: start, to: split, mode: carriageReturn(in: start..<split) ? .cdata : nil, isSkippable: false)
            }
            let shift = try refill(keeping: start)
            start -= shift
            scan -= shift
        }
    }

    /// Reports `bytes[start..<end]` as text, decoded with `mode` when given, and moves `cursor`
    /// to `end`. `nil` if empty, or whitespace only and `isSkippable` (a whole text run, not
    /// CDATA) with `skipsWhitespaceText` on.
    private mutating func report(from start: Int, to end: Int, mode: XMLReferenceDecoder.Mode?, isSkippable: Bool) throws -> XMLEvent? {
        cursor = end
        let b = input.bytes
        if end == start { return nil }
        if skipsWhitespaceText, isSkippable {
            var index = start
            while index < end, XMLCharacterClass.isWhitespace(b[index]) { index += 1 }
            if index == end { return nil }
        }
        eventStart = start
        let isStable: Bool
        if let mode {
            let destination = scratch.reserve(end - start)
            do {
                charactersCount = try XMLReferenceDecoder.decode(b + start, count: end - start, into: destination, mode: mode)
            } catch {
                throw fail(error.kind, at: start + error.offset)
            }
            scratch.count += charactersCount
            charactersBase = UnsafePointer(destination)
            isStable = false
        } else {
            charactersBase = UnsafePointer(b + start)
            charactersCount = end - start
            isStable = true
        }
        if collectsText, let charactersBase {
            guard text.count + charactersCount <= maximumTokenBytes else {
                throw fail(.tokenTooLong(limitBytes: maximumTokenBytes), at: start)
            }
            text.append(charactersBase, count: charactersCount, isStable: isStable)
        }
        return .text
    }

    private func carriageReturn(in range: Range<Int>) -> Bool {
        memchr(input.bytes + range.lowerBound, 0x0D, range.count) != nil
    }

    /// Where to cut a run that fills the buffer so that the part before the cut decodes on its
    /// own: not inside a reference (when `referencesMatter`), a CR LF pair or a UTF-8 sequence,
    /// and at least `keepingLast` bytes before `end` (a possible `]]` of `]]>`).
    private func splitPoint(from start: Int, to end: Int, keepingLast reserve: Int, referencesMatter: Bool) -> Int {
        let b = input.bytes
        var split = end - reserve
        if referencesMatter {
            // The longest reference worth keeping whole: `&#x` + 8 digits + `;` (leading zeros).
            var index = split - 1
            while index >= max(start, split - 12) {
                if b[index] == UInt8(ascii: ";") { break }
                if b[index] == UInt8(ascii: "&") {
                    split = index
                    break
                }
                index -= 1
            }
        }
        if split > start, b[split - 1] == 0x0D { split -= 1 }
        // Back up to the lead byte of a UTF-8 sequence that would be cut.
        var lead = split - 1
        while lead > start, lead > split - 4, b[lead] & 0xC0 == 0x80 { lead -= 1 }
        if lead >= start {
            let byte = b[lead]
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if lead + length > split { split = lead }
        }
        return split > start ? split : end - reserve
    }
}
