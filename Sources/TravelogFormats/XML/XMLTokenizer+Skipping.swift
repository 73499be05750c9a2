#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension XMLTokenizer {
    /// Whitespace before or after the root element; anything else there is an error.
    mutating func skipWhitespaceOutsideRoot() throws {
        let b = input.bytes
        let table = characterClasses
        var index = cursor
        while table[Int(b[index])] & XMLCharacterClass.whitespace != 0 { index += 1 }
        guard b[index] == UInt8(ascii: "<") else {
            throw fail(phase == .prolog ? .textBeforeRootElement : .textAfterRootElement, at: index)
        }
        cursor = index
    }

    /// Skips `<!-- … -->` at `cursor`, rejecting `--` inside (XML 1.0 §2.5).
    mutating func skipComment() throws {
        cursor += 4
        while true {
            guard try require(3) else { throw unexpectedEnd(inside: .comment) }
            let b = input.bytes
            guard let found = memchr(b + cursor, Int32(UInt8(ascii: "-")), input.end - cursor) else {
                cursor = input.end
                continue
            }
            cursor = UnsafeRawPointer(found) - UnsafeRawPointer(b)
            guard try require(3) else { throw unexpectedEnd(inside: .comment) }
            if input.bytes[cursor + 1] == UInt8(ascii: "-") {
                guard input.bytes[cursor + 2] == UInt8(ascii: ">") else { throw fail(.doubleHyphenInComment, at: cursor) }
                cursor += 3
                return
            }
            cursor += 1
        }
    }

    /// Skips `<?target … ?>` at `cursor` (the XML declaration included: its encoding was read
    /// before parsing started).
    mutating func skipProcessingInstruction() throws {
        guard try require(3) else { throw unexpectedEnd(inside: .processingInstruction) }
        let target = input.bytes[cursor + 2]
        guard characterClasses[Int(target)] & XMLCharacterClass.nameStart != 0 else {
            throw fail(.unexpectedByte(found: target, expected: .processingInstructionTarget), at: cursor + 2)
        }
        cursor += 3
        while true {
            guard try require(2) else { throw unexpectedEnd(inside: .processingInstruction) }
            let b = input.bytes
            guard let found = memchr(b + cursor, Int32(UInt8(ascii: "?")), input.end - cursor) else {
                cursor = input.end
                continue
            }
            cursor = UnsafeRawPointer(found) - UnsafeRawPointer(b)
            guard try require(2) else { throw unexpectedEnd(inside: .processingInstruction) }
            cursor += 1
            if input.bytes[cursor] == UInt8(ascii: ">") {
                cursor += 1
                return
            }
        }
    }

    /// Skips `<!DOCTYPE … >` at `cursor` with its internal subset: quoted literals, comments and
    /// processing instructions inside it may hold `>` and `]` (XML 1.0 §2.8).
    mutating func skipDoctype() throws {
        cursor += 9
        var quote: UInt8 = 0
        var isInSubset = false
        while true {
            _ = try require(4)
            guard cursor < input.end else { throw unexpectedEnd(inside: .doctype) }
            let b = input.bytes
            let byte = b[cursor]
            if quote != 0 {
                if byte == quote { quote = 0 }
                cursor += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                quote = byte
            case UInt8(ascii: "[") where !isInSubset:
                isInSubset = true
            case UInt8(ascii: "]") where isInSubset:
                isInSubset = false
            case UInt8(ascii: ">") where !isInSubset:
                cursor += 1
                sawDoctype = true
                return
            case UInt8(ascii: "<") where isInSubset && input.end - cursor >= 4:
                if b[cursor + 1] == UInt8(ascii: "!"), b[cursor + 2] == UInt8(ascii: "-"), b[cursor + 3] == UInt8(ascii: "-") {
                    try skipComment()
                    continue
                }
                if b[cursor + 1] == UInt8(ascii: "?") {
                    try skipProcessingInstruction()
                    continue
                }
            default:
                break
            }
            cursor += 1
        }
    }
}
