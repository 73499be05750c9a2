import TravelogCore

extension Gazetteer {
    /// The bytes of a gazetteer file holding `places`, in the layout documented on `Gazetteer`
    /// (the same that `scripts/build-gazetteer.py` writes). Strings are stored once; countries are
    /// numbered in order of first appearance.
    /// - Throws: `GazetteerError.unencodable` when a population or a count does not fit the format.
    /// - Complexity: O(total size of the places).
    public static func encode(_ places: [GazetteerPlace]) throws(GazetteerError) -> [UInt8] {
        var strings = StringTable()
        var countryNumbers: [String: UInt16] = [:]
        var countries: [GazetteerCountry] = []
        var columns = (latitude: [Int32](), longitude: [Int32](), name: [UInt32](), ascii: [UInt32](),
                       admin1: [UInt32](), admin2: [UInt32](), timeZone: [UInt32](), country: [UInt16](), population: [UInt32]())
        for place in places {
            let number: UInt16
            if let known = countryNumbers[place.country.code] {
                number = known
            } else {
                guard countries.count < Int(UInt16.max) else { throw .unencodable(.tooMany(what: "countries", count: countries.count + 1)) }
                number = UInt16(countries.count)
                countryNumbers[place.country.code] = number
                countries.append(place.country)
            }
            guard let population = UInt32(exactly: place.population) else { throw .unencodable(.populationOutOfRange(place.population)) }
            columns.latitude.append(Int32((place.coordinate.latitude * 1e5).rounded()))
            columns.longitude.append(Int32((place.coordinate.longitude * 1e5).rounded()))
            columns.name.append(strings.add(place.name))
            columns.ascii.append(strings.add(place.asciiName))
            columns.admin1.append(strings.add(place.administrativeArea))
            columns.admin2.append(strings.add(place.subAdministrativeArea))
            columns.timeZone.append(strings.add(place.timeZoneIdentifier))
            columns.country.append(number)
            columns.population.append(population)
        }
        let countryNames = countries.map { strings.add($0.name) }
        guard places.count <= Int(UInt32.max) else { throw .unencodable(.tooMany(what: "places", count: places.count)) }
        guard strings.bytes.count <= Int(UInt32.max) else { throw .unencodable(.tooMany(what: "string bytes", count: strings.bytes.count)) }

        var out: [UInt8] = magic
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        append(formatVersion)
        append(UInt32(places.count))
        append(UInt32(countries.count))
        append(UInt32(strings.offsets.count - 1))
        append(UInt32(strings.bytes.count))
        append(UInt32(0))
        for (country, name) in zip(countries, countryNames) {
            out.append(contentsOf: country.code.utf8)
            out.append(contentsOf: country.alpha3Code.map { Array($0.utf8) } ?? [0, 0, 0])
            out.append(0)
            append(name)
        }
        strings.offsets.forEach { append($0) }
        out.append(contentsOf: strings.bytes)
        columns.latitude.forEach { append($0) }
        columns.longitude.forEach { append($0) }
        for column in [columns.name, columns.ascii, columns.admin1, columns.admin2, columns.timeZone] { column.forEach { append($0) } }
        columns.country.forEach { append($0) }
        columns.population.forEach { append($0) }
        return out
    }

    /// Deduplicated UTF-8 strings; string 0 is the empty string.
    private struct StringTable {
        var numbers: [String: UInt32] = ["": 0]
        var offsets: [UInt32] = [0, 0]
        var bytes: [UInt8] = []

        mutating func add(_ text: String) -> UInt32 {
            if let known = numbers[text] { return known }
            let number = UInt32(offsets.count - 1)
            bytes.append(contentsOf: text.utf8)
            offsets.append(UInt32(truncatingIfNeeded: bytes.count))
            numbers[text] = number
            return number
        }
    }
}
