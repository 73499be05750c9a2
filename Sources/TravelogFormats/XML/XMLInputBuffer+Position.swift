#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension XMLInputBuffer {
    /// The offset in the original input of the byte at `index` (or of the end of input at `end`).
    func originalOffset(ofIndex index: Int) -> Int {
        if let origins { return origins[index] }
        return streamOffset + index + byteOrderMarkBytes
    }

    /// The offset in the UTF-8 stream of the byte at `index`.
    func streamOffset(ofIndex index: Int) -> Int { streamOffset + index }

    /// Where the byte at `index` is in the original input. `index` must not be before a byte
    /// already discarded or counted (the parser only asks about its current token).
    mutating func position(ofIndex index: Int) -> SourcePosition {
        countLines(upTo: index)
        let offset = originalOffset(ofIndex: index)
        return SourcePosition(byteOffset: offset, line: line, column: max(1, offset - lineStartOriginal + 1))
    }

    /// Counts the line ends in `bytes[…<index]` not counted yet: LF, CR LF and a lone CR, each
    /// one line end as XML 1.0 §2.11 reads them (the decoded text has an LF for each), so a line
    /// number does not depend on where the input was cut into blocks or the text into parts.
    mutating func countLines(upTo index: Int) {
        let from = linesCountedTo - streamOffset
        guard index > from, from >= 0 else { return }
        var found = 0
        var lastEnd = -1
        if memchr(bytes + from, 0x0D, index - from) == nil {
            found = Self.countLineFeeds(in: UnsafeRawPointer(bytes + from), count: index - from)
            if found > 0 {
                lastEnd = index - 1
                while bytes[lastEnd] != 0x0A { lastEnd -= 1 }
                // The LF of a CR LF whose CR ended the last range was counted with it.
                if lastEndWasCarriageReturn, bytes[from] == 0x0A { found -= 1 }
            }
        } else {
            var afterCarriageReturn = lastEndWasCarriageReturn
            for offset in from..<index {
                let byte = bytes[offset]
                if byte == 0x0D || (byte == 0x0A && !afterCarriageReturn) { found += 1 }
                if byte == 0x0D || byte == 0x0A { lastEnd = offset }
                afterCarriageReturn = byte == 0x0D
            }
        }
        lastEndWasCarriageReturn = bytes[index - 1] == 0x0D
        line += found
        if lastEnd >= 0 { lineStartOriginal = originalOffset(ofIndex: lastEnd + 1) }
        linesCountedTo = streamOffset + index
    }

    /// The number of LF bytes in `start[0..<count]`.
    /// - Complexity: O(count), 32 bytes per step. A SWAR zero-byte test ("Bit Twiddling Hacks",
    ///   Sean Eron Anderson: a byte of `word ^ 0x0A…` is zero exactly where `word` has LF) marks
    ///   the high bit of each LF byte; four words' marks, shifted apart, share one popcount.
    static func countLineFeeds(in start: UnsafeRawPointer, count: Int) -> Int {
        let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        @inline(__always) func marks(_ offset: Int) -> UInt64 {
            let word = start.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ lineFeeds
            return ~(((word & lowBits) &+ lowBits) | word) & ~lowBits
        }
        var total = 0
        var offset = 0
        while count - offset >= 32 {
            total += (marks(offset) | marks(offset + 8) >> 1 | marks(offset + 16) >> 2 | marks(offset + 24) >> 3).nonzeroBitCount
            offset += 32
        }
        while count - offset >= 8 {
            total += marks(offset).nonzeroBitCount
            offset += 8
        }
        while offset < count {
            if start.load(fromByteOffset: offset, as: UInt8.self) == 0x0A { total += 1 }
            offset += 1
        }
        return total
    }
}
