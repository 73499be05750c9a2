import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

@Suite("btsnoop captures of BLE scans: iBeacons decoded, ranged and monitored")
struct BTSnoopCaptureTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let start = Date(timeIntervalSince1970: 1_764_000_000)

    static func beaconData(minor: UInt16, power: Int8 = -59) -> [UInt8] {
        IBeaconAdvertisement(identity: BeaconIdentity(proximityUUID: uuid, major: 100, minor: minor), measuredPowerDBm: power).advertisingData
    }

    /// A minute of scanning: beacons 1, 2 and 3 at about 8 m, 1.4 m and 0.3 m, beacon 3 switched
    /// off after 20 s; between them a phone's advertisement, a non-Apple beacon, commands and
    /// the monitor's own records, as `btmon -w` writes them.
    static func capture(datalink: BTSnoopWriter.Datalink) -> [UInt8] {
        var writer = BTSnoopWriter(datalink: datalink)
        if datalink == .monitor {
            writer.appendMonitor(.newIndex, data: [0x00, 0x01] + [UInt8](repeating: 0, count: 6) + Array("hci0\0\0\0\0".utf8), at: start)
            writer.appendMonitor(.systemNote, data: Array("Bluetooth daemon 5.66\0".utf8), at: start)
        }
        writer.appendCommand([0x0C, 0x20, 0x02, 0x01, 0x00], at: start)                    // LE Set Scan Enable
        writer.appendEvent([0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00], at: start)               // Command Complete
        for second in 0..<60 {
            let t = start.addingTimeInterval(Double(second))
            let jitter = Int8(second % 3) - 1
            var reports = [BTSnoopWriter.LegacyReport(address: [0xC1, 0, 0, 0, 0, 0x01], data: beaconData(minor: 1), rssiDBm: -77 + jitter)]
            reports.append(BTSnoopWriter.LegacyReport(address: [0x5A, 0x11, 0x22, 0x33, 0x44, 0x55],
                                                      data: [0x02, 0x01, 0x1A, 0x05, 0xFF, 0x4C, 0x00, 0x10, 0x01], rssiDBm: -60))
            writer.appendEvent(BTSnoopWriter.advertisingReportEvent(reports), at: t)
            writer.appendEvent(BTSnoopWriter.extendedAdvertisingReportEvent(address: [0xC1, 0, 0, 0, 0, 0x02], data: beaconData(minor: 2),
                                                                           rssiDBm: -62 + jitter), at: t.addingTimeInterval(0.2))
            if second < 20 {
                writer.appendEvent(BTSnoopWriter.advertisingReportEvent(
                    [.init(address: [0xC1, 0, 0, 0, 0, 0x03], data: beaconData(minor: 3), rssiDBm: -48 + jitter)]), at: t.addingTimeInterval(0.4))
            }
            writer.appendEvent(BTSnoopWriter.advertisingReportEvent(
                [.init(address: [0xE0, 1, 2, 3, 4, 5], data: [0x1A, 0xFF, 0x59, 0x00, 0x02, 0x15] + Array(beaconData(minor: 9)[9...]), rssiDBm: -50)]),
                at: t.addingTimeInterval(0.6))
        }
        return writer.bytes
    }

    @Test("the capture's header and records are read; timestamps to the microsecond",
          arguments: [BTSnoopWriter.Datalink.monitor, .uart, .hci])
    func records(datalink: BTSnoopWriter.Datalink) throws {
        let capture = try BTSnoopCapture(bytes: Self.capture(datalink: datalink))
        #expect(capture.datalink.rawValue == datalink.rawValue)
        #expect(capture.records.count == (datalink == .monitor ? 4 : 2) + 60 * 4 - 40)
        #expect(capture.records.last?.timestamp == Self.start.addingTimeInterval(59.6))
    }

    @Test("LE advertising reports, legacy and extended, carry address, RSSI and data",
          arguments: [BTSnoopWriter.Datalink.monitor, .uart, .hci])
    func reports(datalink: BTSnoopWriter.Datalink) throws {
        let reports = try BTSnoopCapture(bytes: Self.capture(datalink: datalink)).advertisingReports()
        #expect(reports.count == 60 * 4 + 20)
        #expect(reports[0].addressText == "C1:00:00:00:00:01")
        #expect(reports[0].rssiDBm == -78)
        #expect(reports[1].addressText == "5A:11:22:33:44:55" && !reports[1].isExtended)
        #expect(reports[2].isExtended && reports[2].rssiDBm == -63 && reports[2].data == Self.beaconData(minor: 2))
    }

    @Test("only the iBeacons become sightings, and ranging sorts them by distance")
    func ranging() throws {
        let sightings = try BTSnoopCapture(bytes: Self.capture(datalink: .monitor)).beaconSightings()
        #expect(sightings.count == 60 * 2 + 20)
        #expect(Set(sightings.map(\.identity.minor)) == [1, 2, 3])
        var ranger = BeaconRanger()
        ranger.ingest(contentsOf: sightings.filter { $0.timestamp <= Self.start.addingTimeInterval(15.5) })
        let early = ranger.rangedBeacons(at: Self.start.addingTimeInterval(15.5))
        #expect(early.map(\.identity.minor) == [3, 2, 1])
        #expect(early.map(\.proximity) == [.immediate, .near, .far])
        ranger.ingest(contentsOf: sightings.filter { $0.timestamp > Self.start.addingTimeInterval(15.5) })
        let late = ranger.rangedBeacons(at: Self.start.addingTimeInterval(59.7))
        #expect(late.map(\.identity.minor) == [2, 1], "beacon 3 went silent 40 s ago")
        // Beacon 1: RSSI −77 ± 1 dB → 10^(18/20) ≈ 7.9 m.
        #expect(abs((late[1].estimatedDistanceMeters ?? 0) - 7.94) < 0.2)
    }

    @Test("a beacon region is entered at the first sighting and left 30 s after the last")
    func regionMonitoring() throws {
        let sightings = try BTSnoopCapture(bytes: Self.capture(datalink: .monitor)).beaconSightings()
        var monitor = BeaconRegionMonitor()
        try monitor.register(BeaconRegion(identifier: "meeting room", proximityUUID: Self.uuid, major: 100, minor: 3))
        _ = monitor.advance(to: Self.start.addingTimeInterval(-60))
        _ = monitor.advance(to: Self.start.addingTimeInterval(-1))
        var events = monitor.ingest(contentsOf: sightings)
        events += monitor.advance(to: Self.start.addingTimeInterval(60))
        #expect(events.map(\.kind) == [.entry, .exit])
        #expect(events.map(\.time) == [Self.start.addingTimeInterval(0.4), Self.start.addingTimeInterval(19.4 + 30)])
    }

    @Test("a capture that is not btsnoop, of another version or datalink, or cut short is refused")
    func refusals() {
        var bytes = Self.capture(datalink: .monitor)
        #expect(throws: BTSnoopError.notBTSnoop) { try BTSnoopCapture(bytes: Array("btsnoob\0".utf8) + bytes[8...]) }
        bytes[15] = 0xD2  // 2002: BlueZ's simulator datalink
        #expect(throws: BTSnoopError.unsupportedDatalink(2002)) { try BTSnoopCapture(bytes: bytes) }
        bytes[15] = 0xD1
        bytes[11] = 2
        #expect(throws: BTSnoopError.unsupportedVersion(2)) { try BTSnoopCapture(bytes: bytes) }
        bytes[11] = 1
        // The header, then new index (16 bytes), note (22), command (5), event (6), the first reports (63).
        let sixthRecord = 16 + (24 + 16) + (24 + 22) + (24 + 5) + (24 + 6) + (24 + 63)
        #expect(throws: BTSnoopError.truncatedRecord(recordIndex: 5, byteOffset: sixthRecord)) {
            try BTSnoopCapture(bytes: bytes[0..<(sixthRecord + 30)])
        }
        #expect(throws: BTSnoopError.truncatedRecord(recordIndex: 5, byteOffset: sixthRecord)) {
            try BTSnoopCapture(bytes: bytes[0..<(sixthRecord + 10)])
        }
    }

    @Test("an advertising report shorter than its lengths is a malformed event naming the record")
    func malformedEvent() throws {
        var writer = BTSnoopWriter()
        var event = BTSnoopWriter.advertisingReportEvent([.init(address: [1, 2, 3, 4, 5, 6], data: Self.beaconData(minor: 1), rssiDBm: -70)])
        event[12] = 40  // the data length now runs past the event
        writer.appendEvent(event, at: Self.start)
        let capture = try BTSnoopCapture(bytes: writer.bytes)
        #expect(throws: BTSnoopError.malformedEvent(recordIndex: 0, subeventCode: 0x02, needed: 2 + 9 + 40 + 1, available: 42)) {
            try capture.advertisingReports()
        }
    }
}
