import TravelogCore

extension Gazetteer {
    /// Loads a gazetteer file, checking all of it.
    /// - Parameter path: the file, usually `.build-data/gazetteer.tlgaz`.
    /// - Throws: `GazetteerError.fileNotFound`, `.unreadable` or `.corrupt(path:offset:reason:)`.
    /// - Complexity: O(file size).
    public init(contentsOfFile path: String) throws(GazetteerError) {
        try self.init(bytes: Self.readFile(path), path: path)
    }

    /// Reads a gazetteer from the bytes of a file, checking all of it.
    /// - Parameter path: where the bytes come from, only for messages.
    /// - Throws: `GazetteerError.corrupt(path:offset:reason:)` at the first inconsistency.
    /// - Complexity: O(bytes.count).
    public init(bytes: [UInt8], path: String) throws(GazetteerError) {
        var reader = LittleEndianReader(bytes: bytes, path: path)
        guard bytes.count >= Self.headerBytes else {
            throw reader.corrupt(at: 0, .truncated(section: "header", expectedBytes: Self.headerBytes, fileBytes: bytes.count))
        }
        guard Array(bytes[0..<8]) == Self.magic else { throw reader.corrupt(at: 0, .notAGazetteer) }
        reader.offset = 8
        let version = reader.uint32()
        guard version == Self.formatVersion else { throw reader.corrupt(at: 8, .unsupportedVersion(version)) }
        let placeCount = Int(reader.uint32()), countryCount = Int(reader.uint32())
        let stringCount = Int(reader.uint32()), stringByteCount = Int(reader.uint32())
        reader.offset = Self.headerBytes

        // Sizes come from the file: add them up in Int (64-bit), where four 32-bit counts cannot overflow.
        let sections: [(String, Int)] = [
            ("country table", Self.countryRecordBytes * countryCount),
            ("string offsets", 4 * (stringCount + 1)),
            ("string bytes", stringByteCount),
            ("place columns", Self.placeBytes * placeCount),
        ]
        var end = Self.headerBytes
        for (section, size) in sections {
            end += size
            guard end <= bytes.count else {
                throw reader.corrupt(at: end - size, .truncated(section: section, expectedBytes: end, fileBytes: bytes.count))
            }
        }
        guard end == bytes.count else { throw reader.corrupt(at: end, .trailingBytes(count: bytes.count - end)) }

        let countryStart = reader.offset
        reader.offset += Self.countryRecordBytes * countryCount
        let offsetsStart = reader.offset
        let offsets = reader.uint32Column(stringCount + 1)
        let stringsStart = reader.offset
        for i in offsets.indices {
            let previous = i == 0 ? 0 : offsets[i - 1]
            let isLast = i == offsets.count - 1
            guard offsets[i] >= previous, offsets[i] <= stringByteCount, !isLast || offsets[i] == stringByteCount,
                  i != 0 || offsets[i] == 0 else {
                throw reader.corrupt(at: offsetsStart + 4 * i, .badStringOffset(index: i, value: offsets[i]))
            }
        }
        let strings = Array(bytes[stringsStart..<(stringsStart + stringByteCount)])
        for i in 0..<stringCount where !UTF8Validation.isWellFormed(strings, Int(offsets[i])..<Int(offsets[i + 1])) {
            throw reader.corrupt(at: stringsStart + Int(offsets[i]), .invalidUTF8(stringIndex: i))
        }
        reader.offset = stringsStart + stringByteCount

        var countries: [GazetteerCountry] = []
        countries.reserveCapacity(countryCount)
        for i in 0..<countryCount {
            let recordStart = countryStart + Self.countryRecordBytes * i
            reader.offset = recordStart
            let code = String(decoding: bytes[recordStart..<(recordStart + 2)], as: UTF8.self)
            let alpha3Bytes = bytes[(recordStart + 2)..<(recordStart + 5)]
            let alpha3 = alpha3Bytes.allSatisfy { $0 == 0 } ? nil : String(decoding: alpha3Bytes, as: UTF8.self)
            reader.offset = recordStart + 6
            let nameIndex = reader.uint32()
            guard Int(nameIndex) < stringCount else {
                throw reader.corrupt(at: recordStart + 6, .referenceOutOfRange(column: "country name", row: i, value: nameIndex, limit: stringCount))
            }
            let name = String(decoding: strings[Int(offsets[Int(nameIndex)])..<Int(offsets[Int(nameIndex) + 1])], as: UTF8.self)
            guard let country = try? GazetteerCountry(code: code, alpha3Code: alpha3, name: name) else {
                throw reader.corrupt(at: recordStart, .badCountryCode(country: i))
            }
            countries.append(country)
        }

        reader.offset = stringsStart + stringByteCount
        let latitudesStart = reader.offset
        let latitudes = reader.int32Column(placeCount)
        let longitudes = reader.int32Column(placeCount)
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(placeCount)
        for i in 0..<placeCount {
            let latitudeE5 = latitudes[i], longitudeE5 = longitudes[i]
            guard (-9_000_000...9_000_000).contains(latitudeE5) else {
                throw reader.corrupt(at: latitudesStart + 4 * i, .coordinateOutOfRange(column: "latitude", row: i, value: latitudeE5))
            }
            guard (-18_000_000...18_000_000).contains(longitudeE5) else {
                throw reader.corrupt(at: latitudesStart + 4 * (placeCount + i), .coordinateOutOfRange(column: "longitude", row: i, value: longitudeE5))
            }
            guard let coordinate = Coordinate(validLatitude: Double(latitudeE5) / 1e5, longitude: Double(longitudeE5) / 1e5) else {
                throw reader.corrupt(at: latitudesStart + 4 * i, .coordinateOutOfRange(column: "latitude", row: i, value: latitudeE5))
            }
            coordinates.append(coordinate)
        }
        var stringColumns: [[UInt32]] = []
        for column in ["name", "ASCII name", "admin1", "admin2", "time zone"] {
            let start = reader.offset
            let values = reader.uint32Column(placeCount)
            if let bad = values.firstIndex(where: { Int($0) >= stringCount }) {
                throw reader.corrupt(at: start + 4 * bad, .referenceOutOfRange(column: column, row: bad, value: values[bad], limit: stringCount))
            }
            stringColumns.append(values)
        }
        let countryColumnStart = reader.offset
        let countryIndexes = reader.uint16Column(placeCount)
        if let bad = countryIndexes.firstIndex(where: { Int($0) >= countryCount }) {
            throw reader.corrupt(at: countryColumnStart + 2 * bad,
                                 .referenceOutOfRange(column: "country", row: bad, value: UInt32(countryIndexes[bad]), limit: countryCount))
        }
        let populations = reader.uint32Column(placeCount)

        self.path = path
        self.countries = countries
        self.coordinates = coordinates
        self.nameStrings = stringColumns[0]
        self.asciiNameStrings = stringColumns[1]
        self.admin1Strings = stringColumns[2]
        self.admin2Strings = stringColumns[3]
        self.timeZoneStrings = stringColumns[4]
        self.countryIndexes = countryIndexes
        self.populations = populations
        self.stringOffsets = offsets
        self.stringBytes = strings
    }

    /// The whole file, read with one `read` loop.
    static func readFile(_ path: String) throws(GazetteerError) -> [UInt8] {
        do {
            return try BinaryDataFile.contents(ofFile: path)
        } catch {
            switch error {
            case .notFound: throw .fileNotFound(path: path)
            case .unreadable(let errno): throw .unreadable(path: path, errno: errno)
            }
        }
    }
}

extension LittleEndianReader {
    func corrupt(at offset: Int, _ reason: GazetteerCorruption) -> GazetteerError {
        .corrupt(path: path, offset: offset, reason: reason)
    }
}
