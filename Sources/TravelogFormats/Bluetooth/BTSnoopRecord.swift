import Foundation

/// One packet of a btsnoop capture.
public struct BTSnoopRecord: Sendable, Hashable {
    /// The packet's length when captured, bytes (`data` may hold fewer).
    public let originalLength: Int
    /// Packet flags; for the BlueZ monitor datalink the controller index (high 16 bits) and the
    /// monitor opcode (low 16 bits).
    public let flags: UInt32
    /// Packets dropped before this one since the capture began.
    public let cumulativeDrops: UInt32
    /// When the packet was captured.
    public let timestamp: Date
    /// The packet as captured.
    public let data: [UInt8]

    /// Creates a record.
    public init(originalLength: Int, flags: UInt32, cumulativeDrops: UInt32, timestamp: Date, data: [UInt8]) {
        self.originalLength = originalLength
        self.flags = flags
        self.cumulativeDrops = cumulativeDrops
        self.timestamp = timestamp
        self.data = data
    }

    /// BlueZ's monitor opcode of an HCI event packet (`BTSNOOP_OPCODE_EVENT_PKT`).
    public static let monitorEventOpcode: UInt32 = 3
    /// The H4 (UART) packet indicator of an HCI event.
    public static let uartEventIndicator: UInt8 = 0x04

    /// The HCI event this record carries (event code, parameter length, parameters), or `nil` for
    /// any other packet (commands, ACL data, the monitor's index and note records).
    public func hciEvent(datalink: BTSnoopCapture.Datalink) -> ArraySlice<UInt8>? {
        switch datalink {
        case .monitor:
            return flags & 0xFFFF == Self.monitorEventOpcode ? data[...] : nil
        case .uart:
            return data.first == Self.uartEventIndicator ? data.dropFirst() : nil
        case .hci:
            // Bit 0: received (1) or sent (0); bit 1: command or event (1) or data (0).
            return flags & 0b11 == 0b11 ? data[...] : nil
        }
    }

    /// The LE advertising reports (legacy and extended) of this record's HCI event, each with the
    /// record's timestamp; none for other packets.
    /// - Parameter recordIndex: the record's place in its capture, for the error.
    /// - Throws: ``BTSnoopError/malformedEvent(recordIndex:subeventCode:needed:available:)``.
    public func advertisingReports(datalink: BTSnoopCapture.Datalink, recordIndex: Int) throws(BTSnoopError) -> [LEAdvertisingReport] {
        guard let event = hciEvent(datalink: datalink) else { return [] }
        do {
            return try LEAdvertisingReport.reports(inEvent: event, timestamp: timestamp)
        } catch {
            throw .malformedEvent(recordIndex: recordIndex, subeventCode: error.subeventCode, needed: error.needed, available: error.available)
        }
    }
}
