import TravelogCore

extension TimeZoneBoundaries {
    /// Loads a time-zone boundaries file, checking all of it. The file is mapped, not read: once
    /// checked, its pages leave memory, and a lookup brings back the few it touches (its cell's
    /// record and the edges it tests), so memory is paid for the places looked up.
    /// - Parameter path: the file, usually `.build-data/timezones.tlzones`.
    /// - Throws: `TimeZoneBoundariesError.fileNotFound`, `.unreadable` or `.corrupt(path:offset:reason:)`.
    /// - Complexity: O(file size); memory kept about 1/14 of the points' bytes (checkpoints) plus the small tables.
    public init(contentsOfFile path: String) throws(TimeZoneBoundariesError) {
        let bytes: MappedBytes
        do {
            bytes = try MappedBytes(contentsOfFile: path)
        } catch {
            switch error {
            case .notFound: throw .fileNotFound(path: path)
            case .unreadable(let errno): throw .unreadable(path: path, errno: errno)
            }
        }
        try self.init(mapped: bytes, path: path)
    }

    /// Reads time-zone boundaries from the bytes of a file, checking all of it.
    /// - Parameter path: where the bytes come from, only for messages.
    /// - Throws: `TimeZoneBoundariesError.corrupt(path:offset:reason:)` at the first inconsistency.
    /// - Complexity: O(bytes.count).
    public init(bytes: [UInt8], path: String) throws(TimeZoneBoundariesError) {
        try self.init(mapped: MappedBytes(copying: bytes), path: path)
    }

    /// Reads time-zone boundaries from mapped (or copied) bytes, checking all of it; keeps the small
    /// tables as arrays and reads the grid, the cell records and the points where they lie.
    init(mapped file: MappedBytes, path: String) throws(TimeZoneBoundariesError) {
        var reader = LittleEndianReader(bytes: file.copy(0..<min(file.count, Self.headerBytes)), path: path)
        guard file.count >= Self.headerBytes else {
            throw reader.corrupt(at: 0, .truncated(section: "header", expectedBytes: Self.headerBytes, fileBytes: file.count))
        }
        guard reader.bytes.prefix(8).elementsEqual(Self.magic) else { throw reader.corrupt(at: 0, .notTimeZoneBoundaries) }
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
        var gridStart = 0
        for (section, size) in sections {
            if section == "grid" { gridStart = end }
            end += size
            guard end <= file.count else {
                throw reader.corrupt(at: end - size, .truncated(section: section, expectedBytes: end, fileBytes: file.count))
            }
        }
        guard end == file.count else { throw reader.corrupt(at: end, .trailingBytes(count: file.count - end)) }

        // The tables before the grid are small (kilobytes): copied out and kept as arrays.
        reader = LittleEndianReader(bytes: file.copy(0..<gridStart), path: path)
        let bytes = reader.bytes
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
        let cells = MappedUInt32Column(bytes: file, start: gridStart, count: cellCount)
        let recordsStart = gridStart + 4 * cellCount
        let records = MappedUInt32Column(bytes: file, start: recordsStart, count: recordWords)
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
        file.releasePages(before: recordsStart + 4 * recordWords)
        let points: PackedPoints
        do {
            points = try PackedPoints(bytes: file, start: recordsStart + 4 * recordWords, byteCount: pointBytes,
                                      count: pointCount, unitsPerDegree: Int64(unitsPerDegree))
        } catch {
            throw reader.corrupt(at: error.offset, error.reason)
        }
        // All checked: the pages leave memory until a lookup touches them again.
        file.releasePages()

        self.path = path
        zoneIdentifiers = names
        self.polygonZones = polygonZones
        self.polygonFirstRing = polygonFirstRing
        self.ringFirstPoint = ringFirstPoint
        self.cells = cells
        cellRecords = records
        self.points = points
        self.cellUnits = Int64(cellUnits)
        self.unitsPerDegree = Int64(unitsPerDegree)
        self.columns = Int(columns)
        self.rows = Int(rows)
    }

    /// The first word of a cell record that refers past its table, with what it refers to, or `nil`
    /// when the whole record is sound.
    static func problem(inRecordAt start: Int, of words: MappedUInt32Column, polygonCount: Int,
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
}
