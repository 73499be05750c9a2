/// One AD structure of Bluetooth LE advertising data: a length byte, an AD type and its data.
///
/// Source: Bluetooth Core Specification 5.4, Vol 3, Part C, §11 ("Advertising and scan response
/// data format"); the types are in the Bluetooth SIG's Assigned Numbers, §2.3.
public struct AdvertisingDataStructure: Sendable, Hashable {
    /// AD type 0x01: Flags.
    public static let flagsType: UInt8 = 0x01
    /// AD type 0xFF: Manufacturer Specific Data (a 16-bit company identifier, little-endian, first).
    public static let manufacturerSpecificDataType: UInt8 = 0xFF

    /// The AD type.
    public let type: UInt8
    /// The data after the type byte.
    public let data: [UInt8]

    /// Creates a structure.
    public init(type: UInt8, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// The structures of advertising data, in order. A length byte of 0 ends the significant
    /// part (what follows is padding).
    /// - Throws: ``IBeaconError/truncatedStructure(offset:length:available:)`` when a structure
    ///   runs past the end.
    /// - Complexity: O(n) in the bytes.
    public static func parse(_ bytes: some Collection<UInt8>) throws(IBeaconError) -> [AdvertisingDataStructure] {
        let bytes = Array(bytes)
        var structures: [AdvertisingDataStructure] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            guard offset + 1 + length <= bytes.count else {
                throw .truncatedStructure(offset: offset, length: length, available: bytes.count - offset - 1)
            }
            structures.append(AdvertisingDataStructure(type: bytes[offset + 1], data: Array(bytes[(offset + 2)..<(offset + 1 + length)])))
            offset += 1 + length
        }
        return structures
    }

    /// The structure as it is sent: length, type, data.
    public var bytes: [UInt8] { [UInt8(data.count + 1), type] + data }
}
