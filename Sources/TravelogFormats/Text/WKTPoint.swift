/// A point in OGC Well-Known Text, as databases print geometry columns: `POINT (lon lat)`,
/// `POINT(lon lat)`, `POINT Z (lon lat alt)`, with an optional EWKT `SRID=4326;` prefix.
/// Keywords are case-insensitive. Source: OGC 06-103r4 (Simple Features Access, part 1), 7.2.
public struct WKTPoint: Hashable, Sendable {
    /// Degrees east (WKT puts x, the longitude, first).
    public var longitude: Double
    public var latitude: Double
    /// The Z value of `POINT Z`, in metres.
    public var altitudeMeters: Double?

    public init(longitude: Double, latitude: Double, altitudeMeters: Double? = nil) {
        self.longitude = longitude
        self.latitude = latitude
        self.altitudeMeters = altitudeMeters
    }

    /// Reads a WKT point from UTF-8 bytes. - Returns: `nil` when the text is not one (including
    /// `POINT EMPTY`), or when an SRID other than 4326 is given.
    public init?(utf8 bytes: ArraySlice<UInt8>) {
        var rest = bytes
        func skipBlanks() { while let first = rest.first, first == 0x20 || first == 0x09 { rest = rest.dropFirst() } }
        func take(_ word: String) -> Bool {
            let letters = Array(word.utf8)
            guard rest.count >= letters.count,
                  zip(rest.prefix(letters.count), letters).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return false }
            rest = rest.dropFirst(letters.count)
            return true
        }
        skipBlanks()
        if take("SRID=") {
            let digits = rest.prefix { $0 &- 0x30 < 10 }
            guard DecimalNumber.parse(digits) == 4326 else { return nil }
            rest = rest.dropFirst(digits.count)
            guard take(";") else { return nil }
            skipBlanks()
        }
        guard take("POINT") else { return nil }
        skipBlanks()
        var hasZ = false
        if take("ZM") || take("Z") { hasZ = true } else { _ = take("M") }
        skipBlanks()
        guard take("("), let close = rest.firstIndex(of: UInt8(ascii: ")")) else { return nil }
        let numbers = rest[..<close].split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { DecimalNumber.parse($0) }
        rest = rest[(close + 1)...]
        skipBlanks()
        guard rest.isEmpty, numbers.count >= 2, numbers.count <= 4, !numbers.contains(nil),
              let longitude = numbers[0], let latitude = numbers[1] else { return nil }
        self.init(longitude: longitude, latitude: latitude,
                  altitudeMeters: hasZ && numbers.count >= 3 ? numbers[2] : nil)
    }
}
