/// Why bytes are not an iBeacon advertisement, or advertising data is malformed.
public enum IBeaconError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An AD structure's length byte at `offset` runs past the end of the advertising data.
    case truncatedStructure(offset: Int, length: Int, available: Int)
    /// The advertising data holds no manufacturer-specific data (AD type 0xFF).
    case noManufacturerData
    /// The manufacturer data is not Apple's (company identifier 0x004C).
    case notApple(companyIdentifier: UInt16)
    /// Apple manufacturer data of another kind than an iBeacon (type 0x02, length 0x15).
    case notIBeacon(type: UInt8, length: UInt8)
    /// iBeacon manufacturer data is 25 bytes: company (2), type (1), length (1), UUID (16),
    /// major (2), minor (2), measured power (1).
    case wrongLength(Int)

    public var description: String {
        switch self {
        case let .truncatedStructure(offset, length, available):
            "advertising data: the structure at byte \(offset) claims \(length) bytes, \(available) remain"
        case .noManufacturerData: "advertising data holds no manufacturer-specific data (type 0xFF)"
        case .notApple(let company): "manufacturer data of company 0x\(String(company, radix: 16, uppercase: true)), not Apple's 0x004C"
        case let .notIBeacon(type, length):
            "Apple manufacturer data of type 0x\(String(type, radix: 16)) length 0x\(String(length, radix: 16)), not an iBeacon (0x02, 0x15)"
        case .wrongLength(let count): "iBeacon manufacturer data has \(count) bytes, not 25"
        }
    }
}
