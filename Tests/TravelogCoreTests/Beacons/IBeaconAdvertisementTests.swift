import Foundation
import Testing
import TravelogCore

@Suite("iBeacon advertisements")
struct IBeaconAdvertisementTests {
    /// An Estimote beacon's advertising data as a scanner receives it (Estimote's default UUID,
    /// major 1, minor 2, measured power -59 dBm), written out by hand from Apple's layout.
    static let estimote: [UInt8] = [
        0x02, 0x01, 0x06,                                                   // Flags
        0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15,                                 // Apple, iBeacon, 21 bytes
        0xB9, 0x40, 0x7F, 0x30, 0xF5, 0xF8, 0x46, 0x6E, 0xAF, 0xF9, 0x25, 0x55, 0x6B, 0x57, 0xFE, 0x6D,
        0x00, 0x01, 0x00, 0x02, 0xC5,                                       // major, minor, -59 dBm
    ]
    static let estimoteUUID = UUID(uuidString: "B9407F30-F5F8-466E-AFF9-25556B57FE6D")!

    @Test("a received advertisement decodes to its UUID, big-endian major and minor, and signed measured power")
    func decode() throws {
        let advertisement = try IBeaconAdvertisement(advertisingData: Self.estimote)
        #expect(advertisement.identity == BeaconIdentity(proximityUUID: Self.estimoteUUID, major: 1, minor: 2))
        #expect(advertisement.measuredPowerDBm == -59)
    }

    @Test("encoding gives the bytes a beacon sends", arguments: [(UInt16(1), UInt16(2), Int8(-59)), (0xABCD, 0x0102, -77), (0, 65_535, 4)])
    func encode(major: UInt16, minor: UInt16, power: Int8) throws {
        let advertisement = IBeaconAdvertisement(identity: BeaconIdentity(proximityUUID: Self.estimoteUUID, major: major, minor: minor),
                                                 measuredPowerDBm: power)
        #expect(advertisement.advertisingData.count == 30)
        let identity: [UInt8] = [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF)]
        #expect(Array(advertisement.manufacturerData[20..<24]) == identity)
        #expect(try IBeaconAdvertisement(advertisingData: advertisement.advertisingData) == advertisement)
        #expect(try IBeaconAdvertisement(manufacturerData: advertisement.manufacturerData) == advertisement)
        if major == 1 { #expect(advertisement.advertisingData == Self.estimote) }
    }

    @Test("what is not an iBeacon is refused with the reason")
    func refusals() {
        var microsoft = Array(Self.estimote[5...])
        microsoft[0] = 0x06
        #expect(throws: IBeaconError.notApple(companyIdentifier: 0x0006)) { try IBeaconAdvertisement(manufacturerData: microsoft) }
        var airPods = Array(Self.estimote[5...])
        airPods[2] = 0x07
        airPods[3] = 0x19
        #expect(throws: IBeaconError.notIBeacon(type: 0x07, length: 0x19)) { try IBeaconAdvertisement(manufacturerData: airPods) }
        #expect(throws: IBeaconError.wrongLength(24)) { try IBeaconAdvertisement(manufacturerData: Self.estimote[5..<29]) }
        #expect(throws: IBeaconError.noManufacturerData) { try IBeaconAdvertisement(advertisingData: [0x02, 0x01, 0x06]) }
        #expect(throws: IBeaconError.truncatedStructure(offset: 3, length: 26, available: 20)) {
            try IBeaconAdvertisement(advertisingData: Self.estimote[0..<24])
        }
    }

    @Test("AD structures stop at a zero length (padding) and keep their order")
    func structures() throws {
        let structures = try AdvertisingDataStructure.parse(Self.estimote + [0, 0, 0])
        #expect(structures.map(\.type) == [0x01, 0xFF])
        #expect(structures[1].data.count == 25)
        #expect(structures.flatMap(\.bytes) == Self.estimote)
    }

    @Test("Apple's manufacturer data is found among others")
    func appleAmongOthers() throws {
        let other: [UInt8] = [0x05, 0xFF, 0x59, 0x00, 0x01, 0x02]   // Nordic Semiconductor
        #expect(try IBeaconAdvertisement(advertisingData: other + Self.estimote).identity.minor == 2)
    }
}
