import Foundation

/// A btsnoop capture read as it arrives: bytes are handed in whatever pieces a pipe or a growing
/// file gives (`btmon -w FIFO` while a scan runs), and each call returns the records completed by
/// them. Fed a capture in any chunking it returns the records ``BTSnoopCapture`` reads from the
/// whole file, in order.
///
/// The layout and its sources are ``BTSnoopCapture``'s.
/// - Complexity: O(n) in the bytes overall; memory is the unfinished record plus the largest
///   chunk handed in.
public struct BTSnoopStreamReader: Sendable {
    /// The framing of the records, once the 16-byte header has arrived.
    public private(set) var datalink: BTSnoopCapture.Datalink?
    /// The records returned so far.
    public private(set) var recordCount = 0
    /// Bytes received and not yet read as a header or a record; `pending[start...]` is unread.
    private var pending: [UInt8] = []
    private var start = 0
    /// The capture's offset of `pending[start]`.
    private var byteOffset = 0

    /// A reader before the capture's first byte.
    public init() {}

    /// Reads the records that `bytes` completes.
    /// - Throws: ``BTSnoopError`` for a wrong header (as soon as 16 bytes are there); the reader
    ///   is not to be used after a throw.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(BTSnoopError) -> [BTSnoopRecord] {
        if start > 0, start >= pending.count / 2 {
            pending.removeFirst(start)
            start = 0
        }
        pending.append(contentsOf: bytes)
        if datalink == nil {
            guard pending.count - start >= 16 else { return [] }
            datalink = try Self.header(pending[start..<(start + 16)])
            consume(16)
        }
        var records: [BTSnoopRecord] = []
        while pending.count - start >= 24 {
            let included = Int(Self.uint32(pending, at: start + 4))
            guard pending.count - start >= 24 + included else { break }
            records.append(Self.record(pending, at: start, included: included))
            consume(24 + included)
        }
        recordCount += records.count
        return records
    }

    /// Says the capture has ended.
    /// - Throws: ``BTSnoopError/notBTSnoop`` when not even the 16-byte header came, or
    ///   ``BTSnoopError/truncatedRecord(recordIndex:byteOffset:)`` when it ends inside a record.
    public func finish() throws(BTSnoopError) {
        guard datalink != nil else { throw .notBTSnoop }
        guard start == pending.count else { throw .truncatedRecord(recordIndex: recordCount, byteOffset: byteOffset) }
    }

    private mutating func consume(_ count: Int) {
        start += count
        byteOffset += count
    }

    /// The datalink of a 16-byte header.
    static func header(_ bytes: ArraySlice<UInt8>) throws(BTSnoopError) -> BTSnoopCapture.Datalink {
        let header = Array(bytes)
        guard header.count >= 16, Array(header[0..<8]) == BTSnoopCapture.magic else { throw .notBTSnoop }
        let version = uint32(header, at: 8)
        guard version == 1 else { throw .unsupportedVersion(version) }
        let datalinkValue = uint32(header, at: 12)
        guard let datalink = BTSnoopCapture.Datalink(rawValue: datalinkValue) else { throw .unsupportedDatalink(datalinkValue) }
        return datalink
    }

    /// The record at `offset`, whose `included` bytes of data are all there.
    static func record(_ bytes: [UInt8], at offset: Int, included: Int) -> BTSnoopRecord {
        let microseconds = Int64(bitPattern: UInt64(uint32(bytes, at: offset + 16)) << 32 | UInt64(uint32(bytes, at: offset + 20)))
        // Microseconds since 2001-01-01 are exact in a Double; one division rounds once.
        let referenceMicroseconds = microseconds &- BTSnoopCapture.unixEpochMicroseconds &- 978_307_200_000_000
        return BTSnoopRecord(
            originalLength: Int(uint32(bytes, at: offset)),
            flags: uint32(bytes, at: offset + 8),
            cumulativeDrops: uint32(bytes, at: offset + 12),
            timestamp: Date(timeIntervalSinceReferenceDate: Double(referenceMicroseconds) / 1e6),
            data: Array(bytes[(offset + 24)..<(offset + 24 + included)]))
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
