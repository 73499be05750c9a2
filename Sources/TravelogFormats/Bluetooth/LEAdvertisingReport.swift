import Foundation

/// One advertisement a controller received while scanning, from an HCI LE Advertising Report
/// (LE Meta subevent 0x02) or LE Extended Advertising Report (subevent 0x0D).
///
/// Source: Bluetooth Core Specification 5.4, Vol 4, Part E, §7.7.65.2 and §7.7.65.13; reports
/// of one event are read one after the other, as BlueZ's `btmon` reads them
/// (`monitor/packet.c`, `le_adv_report_evt` and `le_ext_adv_report_evt`).
public struct LEAdvertisingReport: Sendable, Hashable {
    /// The HCI event code of LE Meta events.
    public static let leMetaEventCode: UInt8 = 0x3E
    /// The LE Advertising Report subevent.
    public static let advertisingReportSubevent: UInt8 = 0x02
    /// The LE Extended Advertising Report subevent.
    public static let extendedAdvertisingReportSubevent: UInt8 = 0x0D
    /// The RSSI value that means "not available" in extended reports.
    public static let rssiNotAvailable: Int8 = 127

    /// The advertiser's device address, most significant byte first (as written `AA:BB:CC:DD:EE:FF`).
    public let address: [UInt8]
    /// The address type (0 public, 1 random, …).
    public let addressType: UInt8
    /// The event type (legacy: 0x00 ADV_IND … 0x04 SCAN_RSP; extended: the 16-bit properties).
    public let eventType: UInt16
    /// Whether it came from an extended advertising report.
    public let isExtended: Bool
    /// The received signal strength, dBm, or `nil` when the controller had none (127).
    public let rssiDBm: Int?
    /// The advertising data: AD structures.
    public let data: [UInt8]
    /// When the capture recorded the event.
    public let timestamp: Date

    /// The address as text, `AA:BB:CC:DD:EE:FF`.
    public var addressText: String {
        address.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: ":")
    }

    /// An event shorter than its lengths say.
    struct ShortEvent: Error {
        let subeventCode: UInt8?
        let needed: Int
        let available: Int
    }

    /// The reports in an HCI event (event code, parameter length, parameters); none for other events.
    static func reports(inEvent event: ArraySlice<UInt8>, timestamp: Date) throws(ShortEvent) -> [LEAdvertisingReport] {
        let bytes = Array(event)
        guard bytes.count >= 2 else { throw ShortEvent(subeventCode: nil, needed: 2, available: bytes.count) }
        guard bytes[0] == leMetaEventCode else { return [] }
        let parameterLength = Int(bytes[1])
        guard bytes.count >= 2 + parameterLength, parameterLength >= 2 else {
            throw ShortEvent(subeventCode: nil, needed: 2 + max(parameterLength, 2), available: bytes.count)
        }
        let parameters = Array(bytes[2..<(2 + parameterLength)])
        switch parameters[0] {
        case advertisingReportSubevent: return try legacyReports(parameters, timestamp: timestamp)
        case extendedAdvertisingReportSubevent: return try extendedReports(parameters, timestamp: timestamp)
        default: return []
        }
    }

    /// Subevent, report count, then per report: event type, address type, address (6, least
    /// significant byte first), data length, data, RSSI (signed).
    private static func legacyReports(_ p: [UInt8], timestamp: Date) throws(ShortEvent) -> [LEAdvertisingReport] {
        var reports: [LEAdvertisingReport] = []
        var offset = 2
        for _ in 0..<Int(p[1]) {
            try need(offset + 9, in: p, subevent: advertisingReportSubevent)
            let length = Int(p[offset + 8])
            try need(offset + 9 + length + 1, in: p, subevent: advertisingReportSubevent)
            reports.append(LEAdvertisingReport(
                address: p[(offset + 2)..<(offset + 8)].reversed(), addressType: p[offset + 1], eventType: UInt16(p[offset]),
                isExtended: false, rssiDBm: Int(Int8(bitPattern: p[offset + 9 + length])),
                data: Array(p[(offset + 9)..<(offset + 9 + length)]), timestamp: timestamp))
            offset += 10 + length
        }
        return reports
    }

    /// Subevent, report count, then per report: event type (2, little-endian), address type,
    /// address (6), primary PHY, secondary PHY, advertising SID, TX power, RSSI, periodic
    /// advertising interval (2), direct address type, direct address (6), data length, data.
    private static func extendedReports(_ p: [UInt8], timestamp: Date) throws(ShortEvent) -> [LEAdvertisingReport] {
        var reports: [LEAdvertisingReport] = []
        var offset = 2
        for _ in 0..<Int(p[1]) {
            try need(offset + 24, in: p, subevent: extendedAdvertisingReportSubevent)
            let length = Int(p[offset + 23])
            try need(offset + 24 + length, in: p, subevent: extendedAdvertisingReportSubevent)
            let rssi = Int8(bitPattern: p[offset + 13])
            reports.append(LEAdvertisingReport(
                address: p[(offset + 3)..<(offset + 9)].reversed(), addressType: p[offset + 2],
                eventType: UInt16(p[offset]) | UInt16(p[offset + 1]) << 8, isExtended: true,
                rssiDBm: rssi == rssiNotAvailable ? nil : Int(rssi),
                data: Array(p[(offset + 24)..<(offset + 24 + length)]), timestamp: timestamp))
            offset += 24 + length
        }
        return reports
    }

    private static func need(_ count: Int, in bytes: [UInt8], subevent: UInt8) throws(ShortEvent) {
        guard bytes.count >= count else { throw ShortEvent(subeventCode: subevent, needed: count, available: bytes.count) }
    }
}
