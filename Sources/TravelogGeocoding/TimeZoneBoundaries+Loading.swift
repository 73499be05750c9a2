import TravelogCore

extension TimeZoneBoundaries {
    /// Loads a time-zone boundaries file, checking all of it.
    /// - Parameter path: the file, usually `.build-data/timezones.tlzones`.
    /// - Throws: `TimeZoneBoundariesError.fileNotFound`, `.unreadable` or `.corrupt(path:offset:reason:)`.
    /// - Complexity: O(file size).
    public init(contentsOfFile path: String) throws(TimeZoneBoundariesError) {
        let bytes: [UInt8]
        do {
            bytes = try BinaryDataFile.contents(ofFile: path)
        } catch {
            switch error {
            case .notFound: throw .fileNotFound(path: path)
            case .unreadable(let errno): throw .unreadable(path: path, errno: errno)
            }
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Reads time-zone boundaries from the bytes of a file, checking all of it.
    /// - Parameter path: where the bytes come from, only for messages.
    /// - Throws: `TimeZoneBoundariesError.corrupt(path:offset:reason:)` at the first inconsistency.
    /// - Complexity: O(bytes.count).
    public init(bytes: [UInt8], path: String) throws(TimeZoneBoundariesError) {
        var reader = LittleEndianReader(bytes: bytes, path: path)
        guard bytes.count >= Self.headerBytes else {
            throw reader.corrupt(at: 0, .truncated(section: "header", expectedBytes: Self.headerBytes, fileBytes: bytes.count))
        }
        guard Array(bytes[0..<8]) == Self.magic else { throw reader.corrupt(at: 0, .notTimeZoneBoundaries) }
        reader.offset = 8
        let version = reader.uint32()
        guard version == Self.formatVersion else { throw reader.corrupt(at: 8, .unsupportedVersion(version)) }
        let header = (0..<11).map { _ in reader.uint32() }
        let (zoneCount, polygonCount, ringCount, pointCount) = (Int(header[0]), Int(header[1]), Int(header[2]), Int(header[3]))
        let (cellUnits, unitsPerDegree, columns, rows) = (header[4], header[5], header[6], header[7])
        let (nameBytes, pointBytes, recordWords) = (Int(header[8]), Int(header[9]), Int(header[10]))
        guard cellUnits > 0, unitsPerDegree > 0, UInt64(columns) * UInt64(cellUnits) == 360 * UInt64(unitsPerDegree),
              UInt64(rows) * UInt64(cellUnits) == 180 * UInt64(unitsPerDegree) else {
            throw reader.corrupt(at: 28, .badGrid(cellUnits: cellUnits, unitsPerDegree: unitsPerDegree, columns: columns, rows: rows))
        }
        let cellCount = Int(columns) * Int(rows)

        // Sizes come from the file: add them up in Int (64-bit), where 32-bit counts cannot overflow.
        func padded(_ size: Int) -> Int { (size + 3) & ~3 }
        let sections: [(String, Int)] = [
            ("zone-name offsets", 4 * (zoneCount + 1)), ("zone names", padded(nameBytes)),
            ("polygon zones", padded(2 * polygonCount)), ("polygon rings", 4 * (polygonCount + 1)),
            ("ring points", 4 * (ringCount + 1)), ("grid", 4 * cellCount), ("cell records", 4 * recordWords),
            ("points", pointBytes),
        ]
        var end = Self.headerBytes
        for (section, size) in sections {
            end += size
            guard end <= bytes.count else {
                throw reader.corrupt(at: end - size, .truncated(section: section, expectedBytes: end, fileBytes: bytes.count))
            }
        }
        guard end == bytes.count else { throw reader.corrupt(at: end, .trailingBytes(count: bytes.count - end)) }

        reader.offset = Self.headerBytes
        let nameOffsets = try reader.firstIndexes("zone-name offset", count: zoneCount + 1, total: nameBytes, minimumStep: 0)
        let namesStart = reader.offset
        var names: [String] = []
        for zone in 0..<zoneCount {
            let range = (namesStart + Int(nameOffsets[zone]))..<(namesStart + Int(nameOffsets[zone + 1]))
            guard UTF8Validation.isWellFormed(bytes, range) else { throw reader.corrupt(at: range.lowerBound, .invalidUTF8(zone: zone)) }
            names.append(String(decoding: bytes[range], as: UTF8.self))
        }
        reader.offset = namesStart + padded(nameBytes)
        let zonesStart = reader.offset
        let polygonZones = reader.uint16Column(polygonCount)
        if let bad = polygonZones.firstIndex(where: { Int($0) >= zoneCount }) {
            throw reader.corrupt(at: zonesStart + 2 * bad, .referenceOutOfRange(what: "the zone of polygon", index: bad, value: UInt32(polygonZones[bad]), limit: zoneCount))
        }
        reader.offset = zonesStart + padded(2 * polygonCount)
        let polygonFirstRing = try reader.firstIndexes("first ring of polygon", count: polygonCount + 1, total: ringCount, minimumStep: 1)
        let ringFirstPoint = try reader.firstIndexes("first point of ring", count: ringCount + 1, total: pointCount, minimumStep: 2)
        let gridStart = reader.offset
        let cells = reader.uint32Column(cellCount)
        let recordsStart = reader.offset
        let records = reader.uint32Column(recordWords)
        for cell in 0..<cellCount {
            let entry = cells[cell]
            if entry & Self.wholeCellFlag != 0 {
                let zone = entry & ~Self.wholeCellFlag
                guard zone == Self.noZone || Int(zone) < zoneCount else {
                    throw reader.corrupt(at: gridStart + 4 * cell, .referenceOutOfRange(what: "the zone of cell", index: cell, value: zone, limit: zoneCount))
                }
            } else if let (word, what, value, limit) = Self.problem(inRecordAt: Int(entry), of: records,
                                                                    polygonCount: polygonCount, pointCount: pointCount) {
                throw reader.corrupt(at: recordsStart + 4 * word, .referenceOutOfRange(what: what, index: cell, value: value, limit: limit))
            }
        }
        let (longitudes, latitudes) = try reader.points(count: pointCount, byteCount: pointBytes, unitsPerDegree: Int64(unitsPerDegree))

        self.path = path
        zoneIdentifiers = names
        self.polygonZones = polygonZones
        self.polygonFirstRing = polygonFirstRing
        self.ringFirstPoint = ringFirstPoint
        self.cells = cells
        cellRecords = records
        self.longitudes = longitudes
        self.latitudes = latitudes
        self.cellUnits = Int64(cellUnits)
        self.unitsPerDegree = Int64(unitsPerDegree)
        self.columns = Int(columns)
        self.rows = Int(rows)
    }

    /// The first word of a cell record that refers past its table, with what it refers to, or `nil`
    /// when the whole record is sound.
    static func problem(inRecordAt start: Int, of words: [UInt32], polygonCount: Int,
                        pointCount: Int) -> (word: Int, what: String, value: UInt32, limit: Int)? {
        guard start + 2 <= words.count else { return (0, "the record of cell", UInt32(truncatingIfNeeded: start), words.count) }
        let count = Int(words[start]), sameZoneFrom = Int(words[start + 1])
        guard sameZoneFrom < count else { return (start + 1, "the same-zone index of cell", words[start + 1], count) }
        var position = start + 2
        for _ in 0..<count {
            guard position + 2 <= words.count else { return (position, "a candidate of cell", UInt32(truncatingIfNeeded: position), words.count) }
            guard Int(words[position] & 0x7FFF_FFFF) < polygonCount else {
                return (position, "a candidate polygon of cell", words[position] & 0x7FFF_FFFF, polygonCount)
            }
            let runCount = Int(words[position + 1])
            position += 2
            guard position + 2 * runCount <= words.count else { return (position, "the runs of cell", UInt32(truncatingIfNeeded: runCount), words.count) }
            for run in 0..<runCount where Int(words[position + 2 * run]) + Int(words[position + 2 * run + 1]) > pointCount - 1 {
                return (position + 2 * run, "an edge run of cell", words[position + 2 * run], pointCount - 1)
            }
            position += 2 * runCount
        }
        return nil
    }
}

extension LittleEndianReader {
    func corrupt(at offset: Int, _ reason: TimeZoneBoundariesCorruption) -> TimeZoneBoundariesError {
        .corrupt(path: path, offset: offset, reason: reason)
    }

    /// A table of first indexes: starts at 0, ends at `total`, and grows by at least `minimumStep`.
    mutating func firstIndexes(_ table: String, count: Int, total: Int, minimumStep: UInt32) throws(TimeZoneBoundariesError) -> [UInt32] {
        let start = offset
        let values = uint32Column(count)
        for i in values.indices {
            let sound = i == 0 ? values[i] == 0 : UInt64(values[i]) >= UInt64(values[i - 1]) + UInt64(minimumStep)
            guard sound, Int(values[i]) <= total, i != count - 1 || Int(values[i]) == total else {
                throw corrupt(at: start + 4 * i, .badOffsets(table: table, index: i, value: values[i]))
            }
        }
        return values
    }

    /// The points: zig-zag LEB128 differences, longitude then latitude, to the end of the file.
    /// - Complexity: O(byteCount).
    mutating func points(count: Int, byteCount: Int, unitsPerDegree: Int64) throws(TimeZoneBoundariesError) -> ([Int32], [Int32]) {
        var longitudes = [Int32](repeating: 0, count: count), latitudes = [Int32](repeating: 0, count: count)
        let start = offset, end = offset + byteCount
        var position = start
        var failure: (offset: Int, reason: TimeZoneBoundariesCorruption)?
        bytes.withUnsafeBufferPointer { input in
            longitudes.withUnsafeMutableBufferPointer { xs in
                latitudes.withUnsafeMutableBufferPointer { ys in
                    var x: Int64 = 0, y: Int64 = 0
                    for point in 0..<count {
                        for axis in 0..<2 {
                            var value: UInt64 = 0, shift: UInt64 = 0
                            while true {
                                guard position < end, shift < 64 else { failure = (position, .badVarint(point: point)); return }
                                let byte = input[position]
                                position += 1
                                value |= UInt64(byte & 0x7F) << shift
                                if byte < 0x80 { break }
                                shift += 7
                            }
                            let delta = Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
                            if axis == 0 { x &+= delta } else { y &+= delta }
                        }
                        guard (-180 * unitsPerDegree...180 * unitsPerDegree).contains(x), (-90 * unitsPerDegree...90 * unitsPerDegree).contains(y) else {
                            failure = (position, .coordinateOutOfRange(point: point, longitude: x, latitude: y))
                            return
                        }
                        xs[point] = Int32(x)
                        ys[point] = Int32(y)
                    }
                }
            }
        }
        if let failure { throw corrupt(at: failure.offset, failure.reason) }
        guard position == end else { throw corrupt(at: position, .trailingBytes(count: end - position)) }
        offset = end
        return (longitudes, latitudes)
    }
}
