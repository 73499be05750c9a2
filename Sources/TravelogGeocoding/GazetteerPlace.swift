import TravelogCore

/// A country as the gazetteer knows it.
public struct GazetteerCountry: Hashable, Sendable {
    /// ISO 3166-1 alpha-2 code, two upper-case ASCII letters ("US").
    public let code: String
    /// ISO 3166-1 alpha-3 code ("USA"), or `nil` when the source has none.
    public let alpha3Code: String?
    /// The English short name from GeoNames ("United States").
    public let name: String

    /// - Throws: `GazetteerError.unencodable(.badCountryCode)` when a code is not upper-case ASCII
    ///   letters of the right length.
    public init(code: String, alpha3Code: String?, name: String) throws(GazetteerError) {
        guard Self.isCode(code, length: 2) else { throw .unencodable(.badCountryCode(code)) }
        if let alpha3Code, !Self.isCode(alpha3Code, length: 3) { throw .unencodable(.badCountryCode(alpha3Code)) }
        self.code = code
        self.alpha3Code = alpha3Code
        self.name = name
    }

    /// Whether `text` is `length` upper-case ASCII letters.
    static func isCode(_ text: String, length: Int) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}

/// One populated place of the gazetteer, with every field decoded.
public struct GazetteerPlace: Hashable, Sendable {
    /// The place's name in UTF-8 as GeoNames spells it ("Sant Julià de Lòria").
    public let name: String
    /// The name in plain ASCII ("Sant Julia de Loria").
    public let asciiName: String
    /// The first-level administrative division (a state, a region), empty when unknown.
    public let administrativeArea: String
    /// The second-level administrative division (a county), empty when unknown.
    public let subAdministrativeArea: String
    /// The country.
    public let country: GazetteerCountry
    /// The IANA time zone identifier ("America/Los_Angeles"), empty when unknown.
    public let timeZoneIdentifier: String
    /// Inhabitants, 0 when GeoNames does not know.
    public let population: Int
    /// Where the place is, to 1e-5 degree (about a metre), as GeoNames gives it.
    public let coordinate: Coordinate

    public init(name: String, asciiName: String, administrativeArea: String, subAdministrativeArea: String,
                country: GazetteerCountry, timeZoneIdentifier: String, population: Int, coordinate: Coordinate) {
        self.name = name
        self.asciiName = asciiName
        self.administrativeArea = administrativeArea
        self.subAdministrativeArea = subAdministrativeArea
        self.country = country
        self.timeZoneIdentifier = timeZoneIdentifier
        self.population = population
        self.coordinate = coordinate
    }
}
