import TravelogCore

/// One level of a ``HistoryTileIndex``: the fixes kept at one spacing, as columns, with the
/// vertices and the segments that touch each square of a grid (the tiles of ``bucketZoom``).
struct IndexLevel: Sendable {
    /// No next vertex: the track ends here or pauses.
    static let noVertex = UInt32.max

    /// The zoom whose tiles are the grid's squares.
    let bucketZoom: Int
    /// A fix closer than this to the last one kept for its device is merged into it (its weight
    /// grows); 0 keeps every fix.
    let spacingMapPoints: Double
    private(set) var x: [UInt32] = []
    private(set) var y: [UInt32] = []
    /// Seconds since 1970 of the first fix a vertex stands for.
    private(set) var seconds: [Double] = []
    /// How many fixes a vertex stands for.
    private(set) var weight: [UInt32] = []
    /// The next vertex of the same device's track, or ``noVertex``.
    private(set) var next: [UInt32] = []
    private(set) var device: [UInt16] = []
    /// Grid square (row << 32 | column) → vertices there and starts of segments through it.
    private(set) var buckets: [UInt64: [UInt32]] = [:]
    /// The last vertex of each device's track.
    private var lastVertex: [UInt16: UInt32] = [:]

    init(bucketZoom: Int, spacingMapPoints: Double) {
        self.bucketZoom = bucketZoom
        self.spacingMapPoints = spacingMapPoints
    }

    var count: Int { x.count }

    /// Writes the level's columns, grid and track ends (``HistoryIndexFile``).
    /// - Complexity: O(vertices + grid entries).
    func write(to writer: inout IndexFileWriter) throws(HistoryIndexFileError) {
        try writer.write(UInt32(bucketZoom))
        try writer.write(spacingMapPoints)
        for column in [x, y, weight, next] { try writer.write(column: column) }
        try writer.write(column: seconds)
        try writer.write(column: device)
        var keys: [UInt64] = [], counts: [UInt32] = [], entries: [UInt32] = []
        keys.reserveCapacity(buckets.count)
        counts.reserveCapacity(buckets.count)
        for (key, bucket) in buckets {
            keys.append(key)
            counts.append(UInt32(bucket.count))
            entries.append(contentsOf: bucket)
        }
        try writer.write(column: keys)
        try writer.write(column: counts)
        try writer.write(column: entries)
        try writer.write(column: Array(lastVertex.keys))
        try writer.write(column: Array(lastVertex.values))
    }

    /// Reads a level that ``write(to:)`` wrote for the same zoom and spacing, checking that every
    /// vertex it names exists, so that a damaged file cannot make a tile read out of bounds.
    /// - Complexity: O(vertices + grid entries).
    init(reading reader: inout IndexFileReader, bucketZoom: Int, spacingMapPoints: Double) throws(HistoryIndexFileError) {
        self.init(bucketZoom: bucketZoom, spacingMapPoints: spacingMapPoints)
        guard try reader.read(UInt32.self) == UInt32(bucketZoom), try reader.readDouble() == spacingMapPoints else {
            throw .inconsistent("a level of zoom \(bucketZoom) of another zoom or spacing")
        }
        x = try reader.readColumn()
        y = try reader.readColumn()
        weight = try reader.readColumn()
        next = try reader.readColumn()
        seconds = try reader.readColumn()
        device = try reader.readColumn()
        let count = x.count
        guard count < Int(Self.noVertex), [y.count, weight.count, next.count, seconds.count, device.count].allSatisfy({ $0 == count }),
              next.allSatisfy({ $0 == Self.noVertex || Int($0) < count }) else {
            throw .inconsistent("the columns of the level of zoom \(bucketZoom)")
        }
        let keys: [UInt64] = try reader.readColumn(), counts: [UInt32] = try reader.readColumn()
        let entries: [UInt32] = try reader.readColumn()
        guard keys.count == counts.count, counts.reduce(0, { $0 + Int($1) }) == entries.count,
              entries.allSatisfy({ Int($0) < count }) else {
            throw .inconsistent("the grid of the level of zoom \(bucketZoom)")
        }
        buckets.reserveCapacity(keys.count)
        var start = 0
        for (key, size) in zip(keys, counts) {
            buckets[key] = Array(entries[start..<(start + Int(size))])
            start += Int(size)
        }
        let ends: [UInt16] = try reader.readColumn(), endVertices: [UInt32] = try reader.readColumn()
        guard ends.count == endVertices.count, endVertices.allSatisfy({ Int($0) < count }) else {
            throw .inconsistent("the track ends of the level of zoom \(bucketZoom)")
        }
        lastVertex = Dictionary(zip(ends, endVertices), uniquingKeysWith: { $1 })
    }

    func point(_ index: Int) -> MapPoint { MapPoint(x: Double(x[index]), y: Double(y[index])) }

    /// Adds a fix of a device, later than every fix of that device added before.
    mutating func append(x px: UInt32, y py: UInt32, seconds time: Double, device id: UInt16, gapSeconds: Double) {
        var linkFrom: UInt32?
        if let last = lastVertex[id] {
            let index = Int(last)
            let dx = Double(px) - Double(x[index]), dy = Double(py) - Double(y[index])
            let paused = time - seconds[index] > gapSeconds || abs(dx) > WebMercator.worldSizeMapPoints / 2
            if !paused {
                if spacingMapPoints > 0, dx * dx + dy * dy < spacingMapPoints * spacingMapPoints {
                    weight[index] &+= 1
                    return
                }
                linkFrom = last
            }
        }
        let vertex = UInt32(x.count)
        x.append(px); y.append(py); seconds.append(time); weight.append(1); next.append(Self.noVertex); device.append(id)
        lastVertex[id] = vertex
        buckets[key(column: cell(px), row: cell(py)), default: []].append(vertex)
        if let from = linkFrom {
            next[Int(from)] = vertex
            registerSegment(from: Int(from), to: Int(vertex))
        }
    }

    /// The grid column or row of a map-point coordinate.
    func cell(_ value: UInt32) -> Int {
        min(Int(value) >> (Tile.maximumZoom - bucketZoom), (1 << bucketZoom) - 1)
    }

    func key(column: Int, row: Int) -> UInt64 { UInt64(row) << 32 | UInt64(column) }

    /// The vertices filed under the squares a rect covers, ascending and without repeats.
    /// - Complexity: O(squares covered + vertices filed there), plus sorting them (nearly sorted
    ///   runs, one per square) when they are fewer than a 16th of the level; more are put in
    ///   order through a bitmap of the level's vertices.
    func vertices(in mapRect: MapRect) -> [UInt32] {
        let count = 1 << bucketZoom
        let size = Tile.sizeMapPoints(zoom: bucketZoom)
        let firstRow = max(0, Int((mapRect.minY / size).rounded(.down)))
        let lastRow = min(count - 1, Int((mapRect.maxY / size).rounded(.down)))
        let firstColumn = Int((mapRect.minX / size).rounded(.down))
        let lastColumn = min(firstColumn + count - 1, Int((mapRect.maxX / size).rounded(.down)))
        guard firstRow <= lastRow else { return [] }
        var found: [UInt32] = []
        if (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) > buckets.count {
            // A wide area over a sparse grid: walk the squares that exist instead.
            for (key, bucket) in buckets {
                let row = Int(key >> 32), column = Int(key & 0xFFFF_FFFF)
                guard row >= firstRow, row <= lastRow else { continue }
                let inside = (firstColumn...lastColumn).contains(column)
                    || (firstColumn...lastColumn).contains(column - count) || (firstColumn...lastColumn).contains(column + count)
                if inside { found.append(contentsOf: bucket) }
            }
        } else {
            for row in firstRow...lastRow {
                for column in firstColumn...lastColumn {
                    let wrapped = ((column % count) + count) % count
                    if let bucket = buckets[key(column: wrapped, row: row)] { found.append(contentsOf: bucket) }
                }
            }
        }
        return found.count > self.count / 16 ? Self.ascendingThroughBitmap(found, below: self.count) : Self.ascendingBySorting(found)
    }

    private static func ascendingBySorting(_ found: [UInt32]) -> [UInt32] {
        var found = found
        found.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(found.count)
        for vertex in found where unique.last != vertex { unique.append(vertex) }
        return unique
    }

    private static func ascendingThroughBitmap(_ found: [UInt32], below limit: Int) -> [UInt32] {
        var words = [UInt64](repeating: 0, count: (limit + 63) / 64)
        for vertex in found { words[Int(vertex >> 6)] |= 1 << UInt64(vertex & 63) }
        var unique: [UInt32] = []
        unique.reserveCapacity(found.count)
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                unique.append(UInt32(index * 64 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return unique
    }

    /// Files the segment's start vertex under every square the segment passes through except the
    /// start's own, walking the grid square by square.
    ///
    /// Source: J. Amanatides and A. Woo, "A fast voxel traversal algorithm for ray tracing",
    /// Eurographics 1987.
    /// - Complexity: O(squares crossed).
    private mutating func registerSegment(from start: Int, to end: Int) {
        let size = Tile.sizeMapPoints(zoom: bucketZoom)
        let x0 = Double(x[start]), y0 = Double(y[start]), x1 = Double(x[end]), y1 = Double(y[end])
        var column = cell(x[start]), row = cell(y[start])
        let lastColumn = cell(x[end]), lastRow = cell(y[end])
        guard column != lastColumn || row != lastRow else { return }
        let dx = x1 - x0, dy = y1 - y0
        let stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1
        var tMaxX = dx == 0 ? Double.infinity : ((Double(column + (stepX > 0 ? 1 : 0)) * size) - x0) / dx
        var tMaxY = dy == 0 ? Double.infinity : ((Double(row + (stepY > 0 ? 1 : 0)) * size) - y0) / dy
        let tDeltaX = dx == 0 ? Double.infinity : size / abs(dx), tDeltaY = dy == 0 ? Double.infinity : size / abs(dy)
        var remaining = abs(lastColumn - column) + abs(lastRow - row)
        let vertex = UInt32(start)
        while remaining > 0 {
            if tMaxX < tMaxY {
                column += stepX
                tMaxX += tDeltaX
            } else {
                row += stepY
                tMaxY += tDeltaY
            }
            remaining -= 1
            buckets[key(column: column, row: row), default: []].append(vertex)
        }
    }
}
