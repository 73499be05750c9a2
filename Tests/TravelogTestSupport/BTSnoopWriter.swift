import Foundation

/// Writes btsnoop captures for tests, byte by byte as BlueZ's `btmon -w` does (the monitor
/// datalink 2001) or as Android's snoop log does (UART, 1002), so the reader is tested on files
/// it did not write itself.
public struct BTSnoopWriter {
    /// The datalinks the tests write.
    public enum Datalink: UInt32, Sendable {
        case hci = 1001
        case uart = 1002
        case monitor = 2001
    }

    /// BlueZ's monitor opcodes (`src/shared/btsnoop.h`).
    public enum MonitorOpcode: UInt16, Sendable {
        case newIndex = 0, commandPacket = 2, eventPacket = 3, aclTX = 4, systemNote = 12
    }

    public let datalink: Datalink
    /// The capture so far.
    public private(set) var bytes: [UInt8]

    public init(datalink: Datalink = .monitor) {
        self.datalink = datalink
        bytes = Array("btsnoop".utf8) + [0]
        Self.append32(1, to: &bytes)
        Self.append32(datalink.rawValue, to: &bytes)
    }

    /// A raw record.
    public mutating func appendRecord(flags: UInt32, data: [UInt8], at date: Date, originalLength: Int? = nil, drops: UInt32 = 0) {
        Self.append32(UInt32(originalLength ?? data.count), to: &bytes)
        Self.append32(UInt32(data.count), to: &bytes)
        Self.append32(flags, to: &bytes)
        Self.append32(drops, to: &bytes)
        // Microseconds since 1 January 0 AD: BlueZ adds 0x00E03AB44A676000 (1 January 2000) to
        // the time since 2000.
        let sinceY2K = Int64(((date.timeIntervalSince1970 - 946_684_800) * 1e6).rounded())
        let stamp = UInt64(bitPattern: sinceY2K + 0x00E0_3AB4_4A67_6000)
        Self.append32(UInt32(stamp >> 32), to: &bytes)
        Self.append32(UInt32(stamp & 0xFFFF_FFFF), to: &bytes)
        bytes += data
    }

    /// A monitor record (controller index 0) with an opcode; only for the monitor datalink.
    public mutating func appendMonitor(_ opcode: MonitorOpcode, data: [UInt8], at date: Date) {
        appendRecord(flags: UInt32(opcode.rawValue), data: data, at: date)
    }

    /// An HCI event (event code, parameter length, parameters), framed for the datalink.
    public mutating func appendEvent(_ event: [UInt8], at date: Date) {
        switch datalink {
        case .monitor: appendRecord(flags: UInt32(MonitorOpcode.eventPacket.rawValue), data: event, at: date)
        case .uart: appendRecord(flags: 1, data: [0x04] + event, at: date)
        case .hci: appendRecord(flags: 0b11, data: event, at: date)
        }
    }

    /// An HCI command (opcode, parameter length, parameters), framed for the datalink.
    public mutating func appendCommand(_ command: [UInt8], at date: Date) {
        switch datalink {
        case .monitor: appendRecord(flags: UInt32(MonitorOpcode.commandPacket.rawValue), data: command, at: date)
        case .uart: appendRecord(flags: 0, data: [0x01] + command, at: date)
        case .hci: appendRecord(flags: 0b10, data: command, at: date)
        }
    }

    /// One legacy report: event type, address type, address (as written, most significant byte
    /// first), advertising data, RSSI.
    public struct LegacyReport {
        public var eventType: UInt8 = 0x03  // ADV_NONCONN_IND, what beacons send
        public var addressType: UInt8 = 0x01
        public var address: [UInt8]
        public var data: [UInt8]
        public var rssiDBm: Int8
        public init(address: [UInt8], data: [UInt8], rssiDBm: Int8) {
            self.address = address
            self.data = data
            self.rssiDBm = rssiDBm
        }
    }

    /// An HCI LE Meta event with an LE Advertising Report (subevent 0x02), reports one after the other.
    public static func advertisingReportEvent(_ reports: [LegacyReport]) -> [UInt8] {
        var parameters: [UInt8] = [0x02, UInt8(reports.count)]
        for report in reports {
            parameters += [report.eventType, report.addressType] + report.address.reversed()
            parameters += [UInt8(report.data.count)] + report.data + [UInt8(bitPattern: report.rssiDBm)]
        }
        return [0x3E, UInt8(parameters.count)] + parameters
    }

    /// An HCI LE Meta event with one LE Extended Advertising Report (subevent 0x0D).
    public static func extendedAdvertisingReportEvent(address: [UInt8], data: [UInt8], rssiDBm: Int8, txPowerDBm: Int8 = 127) -> [UInt8] {
        var parameters: [UInt8] = [0x0D, 1]
        parameters += [0x10, 0x00, 0x01] + address.reversed()                          // legacy PDU bit, random address
        parameters += [0x01, 0x00, 0xFF, UInt8(bitPattern: txPowerDBm), UInt8(bitPattern: rssiDBm)]
        parameters += [0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)             // interval, direct address
        parameters += [UInt8(data.count)] + data
        return [0x3E, UInt8(parameters.count)] + parameters
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
