import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogFormats
import TravelogTestSupport

@Suite("travelog beacons")
struct BeaconsCommandTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let start = Date(timeIntervalSince1970: 1_764_000_000)

    /// Half a minute of a `btmon -w` scan: minor 1 far (about 8 m), minor 2 near (1.4 m), and a
    /// beacon of another UUID.
    static func capture() -> [UInt8] {
        var writer = BTSnoopWriter(datalink: .monitor)
        let other = UUID(uuidString: "00000000-1111-2222-3333-444444444444")!
        for second in 0..<30 {
            let time = start.addingTimeInterval(Double(second))
            for (identity, rssi) in [(BeaconIdentity(proximityUUID: uuid, major: 7, minor: 1), Int8(-77)),
                                     (BeaconIdentity(proximityUUID: uuid, major: 7, minor: 2), -62),
                                     (BeaconIdentity(proximityUUID: other, major: 1, minor: 1), -50)] {
                let data = IBeaconAdvertisement(identity: identity, measuredPowerDBm: -59).advertisingData
                writer.appendEvent(BTSnoopWriter.advertisingReportEvent(
                    [.init(address: [0xC1, 0, 0, 0, identity.major == 1 ? 9 : 0, UInt8(identity.minor)], data: data, rssiDBm: rssi)]), at: time)
            }
        }
        return writer.bytes
    }

    @Test("a capture's beacons are listed nearest first, and --uuid keeps one region's")
    func ranging() throws {
        var everything = try BeaconScan(regions: [])
        let all = try BeaconsCommand.lines(&everything, bytes: Self.capture(), json: false)
        #expect(all.count == 3)
        let region = try BeaconRegion(identifier: "shop", proximityUUID: Self.uuid, major: 7)
        var narrowed = try BeaconScan(regions: [], filter: region)
        let shop = try BeaconsCommand.lines(&narrowed, bytes: Self.capture(), json: true)
        let objects = try shop.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["minor"] as? Int } == [2, 1])  // nearest first
        #expect(objects.first?["proximity"] as? String == "near" && objects.last?["proximity"] as? String == "far")
        let distances = objects.compactMap { $0["distanceMeters"] as? Double }
        #expect(distances.count == 2 && distances[0] < distances[1])
    }

    @Test("a major without a UUID, a minor without a major, a malformed UUID or region, and no capture without --live are refused",
          arguments: [["--major", "1"], ["--uuid", "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "--minor", "1"], ["--uuid", "nope"],
                      ["--region", "nope"], ["--region", "F7826DA6-4FA2-4E98-8024-BC5B71E0893E,1,2,3"],
                      ["--region", "F7826DA6-4FA2-4E98-8024-BC5B71E0893E,70000"]])
    func validation(arguments: [String]) {
        #expect(throws: (any Error).self) { _ = try TravelogCommand.parseAsRoot(["beacons", "scan.btsnoop"] + arguments) }
    }

    @Test("--region UUID[,major[,minor]] is a beacon region named by its text")
    func regionArgument() throws {
        let region = try BeaconsCommand.region("F7826DA6-4FA2-4E98-8024-BC5B71E0893E, 100,3")
        #expect(region.identifier == "F7826DA6-4FA2-4E98-8024-BC5B71E0893E, 100,3")
        #expect(region.proximityUUID == Self.uuid && region.major == 100 && region.minor == 3)
        #expect(try BeaconsCommand.region("F7826DA6-4FA2-4E98-8024-BC5B71E0893E").major == nil)
        #expect(throws: (any Error).self) { _ = try TravelogCommand.parseAsRoot(["beacons"]) }
        _ = try TravelogCommand.parseAsRoot(["beacons", "--live"])
    }
}
