import TravelogCore

/// The places that Travelog geocodes against, loaded from one compact file: GeoNames' populated
/// places of 1000 or more inhabitants (CC BY 4.0), built by `scripts/build-gazetteer.py`.
///
/// The file (extension `.tlgaz`, all integers little-endian, no alignment) is:
///
/// | bytes                  | content                                                                  |
/// |------------------------|--------------------------------------------------------------------------|
/// | 32                     | header: magic `TLGAZETR`, version (UInt32, 1), place count P, country count C, string count S, string bytes B (UInt32 each), 4 zero bytes |
/// | 10 × C                 | countries: ISO alpha-2 (2 ASCII bytes), alpha-3 (3 bytes, zeros when unknown), 1 zero byte, name (UInt32 string index) |
/// | 4 × (S + 1)            | string offsets into the string bytes, non-decreasing, first 0, last B      |
/// | B                      | the strings, UTF-8, concatenated; string 0 is the empty string              |
/// | 4 × P, 4 × P           | latitudes, longitudes: Int32 in 1e-5 degrees                               |
/// | 4 × P each             | name, ASCII name, admin1, admin2, IANA time zone: UInt32 string indexes      |
/// | 2 × P                  | country: UInt16 index into the countries                                   |
/// | 4 × P                  | population: UInt32, 0 when unknown                                         |
///
/// Columns rather than records keep the file and memory small (34 bytes a place plus the
/// deduplicated strings: about 7 MB for 145 000 places) and make loading a few copies. Every
/// offset, reference, coordinate and string is checked when the file is loaded, so a loaded
/// gazetteer is trusted afterwards.
public struct Gazetteer: Sendable {
    /// The first eight bytes of every gazetteer file.
    public static let magic: [UInt8] = Array("TLGAZETR".utf8)
    /// The format version this code reads and writes.
    public static let formatVersion: UInt32 = 1
    /// The file name `make gazetteer` writes, in `.build-data/`.
    public static let defaultFileName = "gazetteer.tlgaz"
    static let headerBytes = 32
    static let countryRecordBytes = 10
    /// Bytes of the columns per place.
    static let placeBytes = 4 * 7 + 2 + 4

    /// Where the gazetteer was loaded from (for messages).
    public let path: String
    /// The countries, in the order places refer to them.
    public let countries: [GazetteerCountry]
    let coordinates: [Coordinate]
    let nameStrings: [UInt32]
    let asciiNameStrings: [UInt32]
    let admin1Strings: [UInt32]
    let admin2Strings: [UInt32]
    let timeZoneStrings: [UInt32]
    let countryIndexes: [UInt16]
    let populations: [UInt32]
    let stringOffsets: [UInt32]
    let stringBytes: [UInt8]

    /// The number of places.
    public var count: Int { coordinates.count }

    /// The coordinate of the place at `index` (0 ..< count).
    public func coordinate(at index: Int) -> Coordinate { coordinates[index] }

    /// The population of the place at `index`, 0 when unknown.
    public func population(at index: Int) -> Int { Int(populations[index]) }

    /// The country of the place at `index`.
    public func country(at index: Int) -> GazetteerCountry { countries[Int(countryIndexes[index])] }

    /// The UTF-8 name of the place at `index`.
    public func name(at index: Int) -> String { string(nameStrings[index]) }

    /// The ASCII name of the place at `index`.
    public func asciiName(at index: Int) -> String { string(asciiNameStrings[index]) }

    /// The first-level administrative division of the place at `index`, empty when unknown.
    public func administrativeArea(at index: Int) -> String { string(admin1Strings[index]) }

    /// The second-level administrative division of the place at `index`, empty when unknown.
    public func subAdministrativeArea(at index: Int) -> String { string(admin2Strings[index]) }

    /// The IANA time zone of the place at `index`, empty when unknown.
    public func timeZoneIdentifier(at index: Int) -> String { string(timeZoneStrings[index]) }

    /// Every field of the place at `index`.
    public func place(at index: Int) -> GazetteerPlace {
        GazetteerPlace(
            name: name(at: index), asciiName: asciiName(at: index),
            administrativeArea: administrativeArea(at: index), subAdministrativeArea: subAdministrativeArea(at: index),
            country: country(at: index), timeZoneIdentifier: timeZoneIdentifier(at: index),
            population: population(at: index), coordinate: coordinate(at: index))
    }

    /// The place at `index` as a placemark; `distanceMeters` is how far it is from a searched
    /// coordinate (reverse geocoding), `nil` otherwise.
    public func placemark(at index: Int, distanceMeters: Double? = nil) -> Placemark {
        let country = country(at: index)
        let name = name(at: index)
        func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
        return Placemark(
            name: name, locality: name,
            subAdministrativeArea: nonEmpty(subAdministrativeArea(at: index)),
            administrativeArea: nonEmpty(administrativeArea(at: index)),
            country: country.name, isoCountryCode: country.code,
            timeZoneIdentifier: nonEmpty(timeZoneIdentifier(at: index)),
            population: population(at: index) > 0 ? population(at: index) : nil,
            coordinate: coordinate(at: index), distanceMeters: distanceMeters)
    }

    /// The string at `index` of the string table (validated UTF-8 when loaded).
    func string(_ index: UInt32) -> String {
        let start = Int(stringOffsets[Int(index)]), end = Int(stringOffsets[Int(index) + 1])
        return stringBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }
}
