#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The input window: refilling from the source, skipping whitespace, counting lines, positions.
extension JSONParser {
    /// Discards the bytes before `keep`, moves the rest to the front and reads more after them.
    ///
    /// Every index into `buffer` held by the caller must be lowered by `shift` (`position` is lowered
    /// here, to no less than 0). When nothing is kept
    /// and the window is full (a token as long as the buffer), the buffer doubles instead.
    /// - Returns: `shift`, and whether new bytes arrived (false at the end of the input).
    mutating func refill(keepingFrom keep: Int) throws -> (shift: Int, gotMore: Bool) {
        guard !sourceIsExhausted else { return (0, false) }
        // The payload of the previous event may point into the buffer: make it point at valid memory.
        stringStart = UnsafePointer(scratch)
        stringCount = 0
        let kept = end - keep
        if keep > 0 {
            if kept > 0 { memmove(buffer, buffer + keep, kept) }
            bufferOffset += keep
            end = kept
            position = max(position - keep, 0)
        } else if end == capacity {
            guard capacity < options.maximumTokenBytes else {
                throw syntaxError(.tokenTooLong(maximumBytes: options.maximumTokenBytes), at: position)
            }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: min(capacity * 2, options.maximumTokenBytes))
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity = min(capacity * 2, options.maximumTokenBytes)
        }
        let wanted = capacity - end
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: wanted))
        precondition(count >= 0 && count <= wanted, "a ByteSource returned \(count) bytes for a \(wanted)-byte buffer")
        guard count > 0 else {
            sourceIsExhausted = true
            return (keep, false)
        }
        end += count
        return (keep, true)
    }

    /// Makes at least `count` bytes from `index` available, keeping everything from `index` on.
    /// - Returns: false when the input ends first (then fewer are available).
    mutating func ensureAvailable(_ count: Int, from index: inout Int) throws -> Bool {
        while end - index < count {
            let (shift, gotMore) = try refill(keepingFrom: index)
            index -= shift
            if !gotMore { return false }
        }
        return true
    }

    /// Skips whitespace (space, tab, CR, LF — counting lines) and returns the next byte without
    /// consuming it, or nil at the end of the input.
    @inline(__always)
    mutating func peekNonWhitespace() throws -> UInt8? {
        while true {
            while position < end {
                let byte = buffer[position]
                if byte > 0x20 { return byte }
                switch byte {
                case 0x20, 0x09, 0x0D:
                    position += 1
                case 0x0A:
                    position += 1
                    line += 1
                    lineStartOffset = bufferOffset + position
                default:
                    return byte
                }
            }
            guard try refill(keepingFrom: position).gotMore else { return nil }
        }
    }

    /// Like `peekNonWhitespace`, but the end of the input inside `context` is an error.
    @inline(__always)
    mutating func peekNonWhitespace(inside context: JSONSyntaxError.Context) throws -> UInt8 {
        guard let byte = try peekNonWhitespace() else {
            throw syntaxError(.unexpectedEndOfInput(inside: context), at: end)
        }
        return byte
    }

    /// Records the current byte as the start of the token being read.
    @inline(__always)
    mutating func markToken() {
        tokenOffset = bufferOffset + position
        tokenLine = line
        tokenLineStartOffset = lineStartOffset
    }

    /// Skips a UTF-8 byte order mark at the very start of the input.
    mutating func skipByteOrderMark() throws {
        var index = position
        let available = try ensureAvailable(3, from: &index)
        position = index
        guard available else { return }
        if buffer[index] == 0xEF, buffer[index + 1] == 0xBB, buffer[index + 2] == 0xBF {
            position += 3
            lineStartOffset = bufferOffset + position
        }
    }

    /// An error at buffer index `index` (on the current line: tokens never contain a newline).
    func syntaxError(_ reason: JSONSyntaxError.Reason, at index: Int) -> JSONSyntaxError {
        let offset = bufferOffset + index
        return JSONSyntaxError(reason, at: SourcePosition(byteOffset: offset, line: line, column: offset - lineStartOffset + 1))
    }

    /// Appends buffer bytes `[from, to)` to the scratch string.
    mutating func appendToScratch(from: Int, to: Int) throws {
        let count = to - from
        guard count > 0 else { return }
        try reserveScratch(count)
        (scratch + scratchCount).update(from: buffer + from, count: count)
        scratchCount += count
    }

    /// Makes room for `count` more bytes in the scratch string.
    @inline(__always)
    mutating func reserveScratch(_ count: Int) throws {
        let needed = scratchCount + count
        guard needed > scratchCapacity || needed > options.maximumTokenBytes else { return }
        try growScratch(toHold: needed)
    }

    mutating func growScratch(toHold needed: Int) throws {
        guard needed <= options.maximumTokenBytes else {
            throw syntaxError(.tokenTooLong(maximumBytes: options.maximumTokenBytes), at: position)
        }
        var newCapacity = scratchCapacity
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: scratch, count: scratchCount)
        scratch.deallocate()
        scratch = grown
        scratchCapacity = newCapacity
        stringStart = UnsafePointer(scratch)
        stringCount = 0
    }
}
