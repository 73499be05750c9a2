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
        var reader = BTSnoopStreamReader()
        let records = try reader.append(bytes)
        try reader.finish()
        guard let datalink = reader.datalink else { throw .notBTSnoop }
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
            reports += try record.advertisingReports(datalink: datalink, recordIndex: index)
        }
        return reports
    }
}
