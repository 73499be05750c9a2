import TravelogOSM

extension OSMPlacesFile {
    /// Opens (maps) a places file and checks every byte of it.
    /// - Throws: ``OSMPlacesError``.
    /// - Complexity: O(file size), then O(1) memory beyond the pages touched.
    public convenience init(contentsOfFile path: String) throws(OSMPlacesError) {
        let bytes: MappedBytes
        do {
            bytes = try MappedBytes(contentsOfFile: path)
        } catch {
            switch error {
            case .notFound: throw .fileNotFound(path: path)
            case .unreadable(let errno): throw .unreadable(path: path, errno: errno)
            }
        }
        try self.init(checking: bytes, path: path)
    }

    /// Checks bytes held in memory as a places file (tests).
    public convenience init(bytes: [UInt8], path: String = "(memory)") throws(OSMPlacesError) {
        try self.init(checking: MappedBytes(copying: bytes), path: path)
    }

    private convenience init(checking bytes: MappedBytes, path: String) throws(OSMPlacesError) {
        func corrupt(_ offset: Int, _ reason: OSMPlacesCorruption) -> OSMPlacesError { .corrupt(path: path, offset: offset, reason: reason) }
        guard bytes.count >= Self.headerBytes, Self.magic.indices.allSatisfy({ bytes.base.load(fromByteOffset: $0, as: UInt8.self) == Self.magic[$0] }) else {
            throw corrupt(0, .notAPlacesFile)
        }
        let version = bytes.uint32(at: 8)
        guard version == Self.formatVersion else { throw corrupt(8, .unsupportedVersion(version)) }
        let counts = (0..<6).map { Int(bytes.uint32(at: 12 + 4 * $0)) }
        let (placeCount, stringCount, stringBytes, tagCount, partCount, pointCount) = (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
        // Counts are under 2^32 each: the sums below cannot overflow Int.
        let layout = Layout(placeCount: placeCount, stringCount: stringCount, stringBytes: stringBytes, tagCount: tagCount,
                            partCount: partCount, pointCount: pointCount)
        guard layout.end == bytes.count else { throw corrupt(12, .sizeMismatch(expectedBytes: layout.end, fileBytes: bytes.count)) }
        guard stringCount >= 1 else { throw corrupt(16, .referenceOutOfRange(column: "string count", row: 0, value: 0, limit: 1)) }
        let unchecked = OSMPlacesFile(path: path, count: placeCount, sourceName: "", boundingBox: nil, bytes: bytes, layout: layout)

        try Self.checkStarts(unchecked, column: "string", at: layout.stringOffsets, rows: stringCount, end: stringBytes, corrupt)
        for index in 0..<stringCount {
            let start = unchecked.uint32(layout.stringOffsets, index), end = unchecked.uint32(layout.stringOffsets, index + 1)
            guard String(validating: UnsafeRawBufferPointer(start: bytes.base + layout.strings + start, count: end - start), as: UTF8.self) != nil else {
                throw corrupt(layout.strings + start, .invalidUTF8(stringIndex: index))
            }
        }
        let sourceIndex = Int(bytes.uint32(at: 52))
        guard sourceIndex < stringCount else { throw corrupt(52, .referenceOutOfRange(column: "source name", row: 0, value: sourceIndex, limit: stringCount)) }
        let box = (0..<4).map { Int(Int32(bitPattern: bytes.uint32(at: 36 + 4 * $0))) }
        let boundingBox: OSMHeader.BoundingBox?
        if box.allSatisfy({ $0 == Int(Int32.min) }) {
            boundingBox = nil
        } else {
            guard abs(box[0]) <= 900_000_000, abs(box[2]) <= 900_000_000, abs(box[1]) <= 1_800_000_000, abs(box[3]) <= 1_800_000_000 else {
                throw corrupt(36, .coordinateOutOfRange(column: "bounding box", row: 0))
            }
            boundingBox = OSMHeader.BoundingBox(minimumLatitude: Double(box[0]) / Self.unitsPerDegree, minimumLongitude: Double(box[1]) / Self.unitsPerDegree,
                                                maximumLatitude: Double(box[2]) / Self.unitsPerDegree, maximumLongitude: Double(box[3]) / Self.unitsPerDegree)
        }

        for row in 0..<placeCount {
            let type = unchecked.byte(layout.types, row)
            guard type <= 2 else { throw corrupt(layout.types + row, .badElementType(row: row, value: type)) }
            if row > 0, (type, unchecked.id(at: row)) <= (unchecked.byte(layout.types, row - 1), unchecked.id(at: row - 1)) {
                throw corrupt(layout.ids + 8 * row, .unsorted(row: row))
            }
            try Self.checkCoordinate(unchecked, layout.latitudes, layout.longitudes, row: row, column: "place", corrupt)
            let category = unchecked.uint32(layout.categories, row)
            guard category < stringCount else {
                throw corrupt(layout.categories + 4 * row, .referenceOutOfRange(column: "category", row: row, value: category, limit: stringCount))
            }
        }
        try Self.checkStarts(unchecked, column: "tag", at: layout.tagStarts, rows: placeCount, end: tagCount, corrupt)
        try Self.checkStarts(unchecked, column: "part", at: layout.partStarts, rows: placeCount, end: partCount, corrupt)
        for (column, section) in [("tag key", layout.tagKeys), ("tag value", layout.tagValues)] {
            for row in 0..<tagCount where unchecked.uint32(section, row) >= stringCount {
                throw corrupt(section + 4 * row, .referenceOutOfRange(column: column, row: row, value: unchecked.uint32(section, row), limit: stringCount))
            }
        }
        try Self.checkStarts(unchecked, column: "point", at: layout.pointStarts, rows: partCount, end: pointCount, corrupt)
        for row in 0..<pointCount {
            try Self.checkCoordinate(unchecked, layout.pointLatitudes, layout.pointLongitudes, row: row, column: "point", corrupt)
        }
        bytes.releasePages()
        self.init(path: path, count: placeCount, sourceName: unchecked.string(sourceIndex), boundingBox: boundingBox, bytes: bytes, layout: layout)
    }

    /// A column of `rows + 1` starting offsets: first 0, non-decreasing, last `end`.
    private static func checkStarts(_ file: OSMPlacesFile, column: String, at section: Int, rows: Int, end: Int,
                                    _ corrupt: (Int, OSMPlacesCorruption) -> OSMPlacesError) throws(OSMPlacesError) {
        guard file.uint32(section, 0) == 0 else { throw corrupt(section, .badOffsets(column: column, row: 0)) }
        for row in 0..<rows where file.uint32(section, row + 1) < file.uint32(section, row) {
            throw corrupt(section + 4 * (row + 1), .badOffsets(column: column, row: row + 1))
        }
        guard file.uint32(section, rows) == end else { throw corrupt(section + 4 * rows, .badOffsets(column: column, row: rows)) }
    }

    private static func checkCoordinate(_ file: OSMPlacesFile, _ latitudes: Int, _ longitudes: Int, row: Int, column: String,
                                        _ corrupt: (Int, OSMPlacesCorruption) -> OSMPlacesError) throws(OSMPlacesError) {
        guard abs(Int(file.int32(latitudes, row))) <= 900_000_000 else { throw corrupt(latitudes + 4 * row, .coordinateOutOfRange(column: column + " latitude", row: row)) }
        guard abs(Int(file.int32(longitudes, row))) <= 1_800_000_000 else { throw corrupt(longitudes + 4 * row, .coordinateOutOfRange(column: column + " longitude", row: row)) }
    }
}
