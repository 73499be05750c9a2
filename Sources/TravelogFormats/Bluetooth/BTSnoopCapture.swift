import Foundation

/// A btsnoop capture: what `btmon -w FILE` writes (BlueZ's monitor datalink), and what Android's
/// HCI snoop log and many vendor stacks write (UART/H4).
///
/// A 16-byte header ("btsnoop\0", version 1 and the datalink, big-endian 32-bit), then records:
/// original length, included length, flags, cumulative drops (big-endian 32-bit each), a
/// timestamp (big-endian signed 64-bit microseconds since midnight, 1 January 0 AD, nominal
/// Gregorian) and the included bytes.
/// Sources: RFC 1761 ("Snoop Version 2 Packet Capture File Format", whose layout btsnoop
/// follows); BlueZ `src/shared/btsnoop.h` and `btsnoop.c` (datalinks 1001, 1002 and 2001, the
/// monitor's opcodes in the flags).
public struct BTSnoopCapture: Sendable {
    /// How the records' bytes are framed.
    public enum Datalink: UInt32, Sendable, Hashable {
        /// Un-encapsulated HCI; the direction and kind are in the flags.
        case hci = 1001
        /// HCI UART (H4): each packet starts with its packet indicator.
        case uart = 1002
        /// BlueZ's monitor: the controller index and the monitor opcode are in the flags.
        case monitor = 2001
    }

    /// The btsnoop magic, "btsnoop\0".
    public static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    /// Microseconds from the btsnoop epoch (1 January 0 AD) to the Unix epoch (BlueZ writes
    /// 0x00E03AB44A676000 for 1 January 2000, 946,684,800 s later).
    public static let unixEpochMicroseconds: Int64 = 0x00E0_3AB4_4A67_6000 - 946_684_800_000_000

    /// The framing of the records.
    public let datalink: Datalink
    /// The packets, in the order captured.
    public let records: [BTSnoopRecord]

    /// Reads a capture from its bytes.
    /// - Throws: ``BTSnoopError`` for a wrong header or a record cut short.
    /// - Complexity: O(n) in the bytes.
    public init(bytes: some Collection<UInt8>) throws(BTSnoopError) {
        let bytes = Array(bytes)
        guard bytes.count >= 16, Array(bytes[0..<8]) == Self.magic else { throw .notBTSnoop }
        let version = Self.uint32(bytes, at: 8)
        guard version == 1 else { throw .unsupportedVersion(version) }
        let datalinkValue = Self.uint32(bytes, at: 12)
        guard let datalink = Datalink(rawValue: datalinkValue) else { throw .unsupportedDatalink(datalinkValue) }
        var records: [BTSnoopRecord] = []
        var offset = 16
        while offset < bytes.count {
            guard offset + 24 <= bytes.count else { throw .truncatedRecord(recordIndex: records.count, byteOffset: offset) }
            let included = Int(Self.uint32(bytes, at: offset + 4))
            guard offset + 24 + included <= bytes.count else { throw .truncatedRecord(recordIndex: records.count, byteOffset: offset) }
            let microseconds = Int64(bitPattern: UInt64(Self.uint32(bytes, at: offset + 16)) << 32 | UInt64(Self.uint32(bytes, at: offset + 20)))
            // Microseconds since 2001-01-01 are exact in a Double; one division rounds once.
            let referenceMicroseconds = microseconds &- Self.unixEpochMicroseconds &- 978_307_200_000_000
            records.append(BTSnoopRecord(
                originalLength: Int(Self.uint32(bytes, at: offset)),
                flags: Self.uint32(bytes, at: offset + 8),
                cumulativeDrops: Self.uint32(bytes, at: offset + 12),
                timestamp: Date(timeIntervalSinceReferenceDate: Double(referenceMicroseconds) / 1e6),
                data: Array(bytes[(offset + 24)..<(offset + 24 + included)])))
            offset += 24 + included
        }
        self.datalink = datalink
        self.records = records
    }

    /// Reads a capture file.
    /// - Throws: ``BTSnoopError/cannotRead(path:reason:)`` when the file cannot be read, or what
    ///   ``init(bytes:)`` throws.
    public init(contentsOf url: URL) throws(BTSnoopError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .cannotRead(path: url.path, reason: "\(error.localizedDescription)")
        }
        try self.init(bytes: data)
    }

    /// Every LE advertising report (legacy and extended) of the capture's HCI events, in order,
    /// each with its record's timestamp.
    /// - Throws: ``BTSnoopError/malformedEvent(recordIndex:subeventCode:needed:available:)``.
    public func advertisingReports() throws(BTSnoopError) -> [LEAdvertisingReport] {
        var reports: [LEAdvertisingReport] = []
        for (index, record) in records.enumerated() {
            guard let event = record.hciEvent(datalink: datalink) else { continue }
            do {
                reports += try LEAdvertisingReport.reports(inEvent: event, timestamp: record.timestamp)
            } catch {
                throw .malformedEvent(recordIndex: index, subeventCode: error.subeventCode, needed: error.needed, available: error.available)
            }
        }
        return reports
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
