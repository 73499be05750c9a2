import Foundation

/// An iBeacon advertisement: Apple manufacturer-specific data carrying a beacon's identity and
/// its measured power.
///
/// The 25 bytes of manufacturer data: Apple's company identifier 0x004C (little-endian, as every
/// Bluetooth company identifier: `4C 00`), type 0x02, length 0x15 (21 bytes follow), the 16-byte
/// proximity UUID, major and minor (big-endian), and the measured power: the RSSI at 1 m, a signed
/// byte in dBm. Source: Apple, "Proximity Beacon Specification", release R1 (2015), and the
/// Bluetooth SIG's Assigned Numbers (company identifier 0x004C, Apple, Inc.).
public struct IBeaconAdvertisement: Sendable, Hashable {
    /// Apple, Inc.'s Bluetooth company identifier.
    public static let appleCompanyIdentifier: UInt16 = 0x004C
    /// The Apple data type of an iBeacon.
    public static let beaconType: UInt8 = 0x02
    /// The length of what follows the type and length bytes.
    public static let beaconDataLength: UInt8 = 0x15

    /// Who the beacon is.
    public let identity: BeaconIdentity
    /// The RSSI a receiver sees 1 m from the beacon, dBm (calibrated by the beacon's maker).
    public let measuredPowerDBm: Int8

    /// Creates an advertisement.
    public init(identity: BeaconIdentity, measuredPowerDBm: Int8) {
        self.identity = identity
        self.measuredPowerDBm = measuredPowerDBm
    }

    /// Decodes manufacturer-specific data (the AD structure's data, company identifier first).
    /// - Throws: ``IBeaconError`` naming what differs from an iBeacon.
    public init(manufacturerData: some Collection<UInt8>) throws(IBeaconError) {
        let bytes = Array(manufacturerData)
        guard bytes.count >= 2 else { throw .wrongLength(bytes.count) }
        let company = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        guard company == Self.appleCompanyIdentifier else { throw .notApple(companyIdentifier: company) }
        guard bytes.count >= 4 else { throw .wrongLength(bytes.count) }
        guard bytes[2] == Self.beaconType, bytes[3] == Self.beaconDataLength else { throw .notIBeacon(type: bytes[2], length: bytes[3]) }
        guard bytes.count == 25 else { throw .wrongLength(bytes.count) }
        let u = bytes[4..<20].map { $0 }
        let uuid = UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]))
        identity = BeaconIdentity(proximityUUID: uuid,
                                  major: UInt16(bytes[20]) << 8 | UInt16(bytes[21]),
                                  minor: UInt16(bytes[22]) << 8 | UInt16(bytes[23]))
        measuredPowerDBm = Int8(bitPattern: bytes[24])
    }

    /// Decodes the iBeacon in advertising data (a whole advertising or scan-response payload).
    /// - Throws: ``IBeaconError/noManufacturerData`` when there is no manufacturer data, or why
    ///   the first Apple one (or the first one, when none is Apple's) is not an iBeacon.
    public init(advertisingData: some Collection<UInt8>) throws(IBeaconError) {
        let manufacturer = try AdvertisingDataStructure.parse(advertisingData)
            .filter { $0.type == AdvertisingDataStructure.manufacturerSpecificDataType }
        guard let first = manufacturer.first else { throw .noManufacturerData }
        let apple = manufacturer.first { $0.data.count >= 2 && $0.data[0] == 0x4C && $0.data[1] == 0x00 }
        try self.init(manufacturerData: (apple ?? first).data)
    }

    /// The 25 bytes of manufacturer-specific data.
    public var manufacturerData: [UInt8] {
        let u = identity.proximityUUID.uuid
        return [0x4C, 0x00, Self.beaconType, Self.beaconDataLength,
                u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
                UInt8(identity.major >> 8), UInt8(identity.major & 0xFF),
                UInt8(identity.minor >> 8), UInt8(identity.minor & 0xFF),
                UInt8(bitPattern: measuredPowerDBm)]
    }

    /// The 30 bytes a beacon advertises: Flags (LE General Discoverable, BR/EDR not supported,
    /// 0x06) and the manufacturer data.
    public var advertisingData: [UInt8] {
        AdvertisingDataStructure(type: AdvertisingDataStructure.flagsType, data: [0x06]).bytes
            + AdvertisingDataStructure(type: AdvertisingDataStructure.manufacturerSpecificDataType, data: manufacturerData).bytes
    }
}
