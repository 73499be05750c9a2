/// A hierarchical grid over the Web Mercator world that finds the regions whose search rects may
/// hold a map point.
///
/// Level `L` cuts the world into 2^L × 2^L square cells. A rect goes to the finest level whose
/// cells are at least a quarter of its longer side, so it touches at most 5 × 5 cells there (a
/// few more when it is cut at the 180th meridian) and the cells it is listed in cover little more
/// than the rect itself; a point looks up one cell per level in use. Like a quadtree with the
/// regions stored at their size (a rect is listed in every cell it touches, so no "loose" cells).
///
/// - Complexity: insertion and lookup O(levels in use) hash look-ups (at most 25); removal
///   O(regions in the cells the rect touched).
struct RegionGridIndex: Sendable {
    /// The finest level: cells of 16 map points (about 2.4 m at the equator).
    static let finestLevel = 24

    /// A rect's longer side spans at most this many cells of its level (and touches one more).
    static let cellsPerExtent = 4.0

    /// What an insertion touched, for its removal.
    struct Entry: Sendable {
        let keys: [Int]
        let level: Int
    }

    private var cells: [Int: [Int32]] = [:]
    private var rectCountByLevel = [Int](repeating: 0, count: finestLevel + 1)
    /// Levels that hold at least one rect, coarsest first.
    private var levelsInUse: [Int] = []

    /// Lists a slot in every cell its rect touches.
    mutating func insert(slot: Int, rect: MapRect) -> Entry {
        let level = Self.level(forExtent: max(rect.width, rect.height) / Self.cellsPerExtent)
        var keys: [Int] = []
        for part in rect.worldParts {
            let (west, east) = Self.cellRange(part.minX, part.maxX, level: level)
            let (north, south) = Self.cellRange(part.minY, part.maxY, level: level)
            for cx in west...east {
                for cy in north...south {
                    let key = Self.key(level: level, cx: cx, cy: cy)
                    if !keys.contains(key) { keys.append(key) }
                }
            }
        }
        for key in keys { cells[key, default: []].append(Int32(slot)) }
        rectCountByLevel[level] += 1
        if rectCountByLevel[level] == 1 { levelsInUse = (0...Self.finestLevel).filter { rectCountByLevel[$0] > 0 } }
        return Entry(keys: keys, level: level)
    }

    /// Removes what ``insert(slot:rect:)`` listed.
    mutating func remove(slot: Int, entry: Entry) {
        for key in entry.keys {
            cells[key]?.removeAll { $0 == Int32(slot) }
            if cells[key]?.isEmpty == true { cells[key] = nil }
        }
        rectCountByLevel[entry.level] -= 1
        if rectCountByLevel[entry.level] == 0 { levelsInUse = (0...Self.finestLevel).filter { rectCountByLevel[$0] > 0 } }
    }

    /// Appends the slots whose rects may hold the point (each once).
    func appendCandidates(at point: MapPoint, to slots: inout [Int]) {
        let world = WebMercator.worldSizeMapPoints
        for level in levelsInUse {
            let cellsPerSide = 1 << level
            let cellSize = world / Double(cellsPerSide)
            let cy = Self.clamped(point.y / cellSize, cellsPerSide)
            let cx = Self.clamped(point.x / cellSize, cellsPerSide)
            if let listed = cells[Self.key(level: level, cx: cx, cy: cy)] {
                for slot in listed { slots.append(Int(slot)) }
            }
            // x = 2^28 is the 180th meridian, also the world's west edge (x = 0).
            if point.x >= world, cx != 0, let listed = cells[Self.key(level: level, cx: 0, cy: cy)] {
                for slot in listed where !slots.contains(Int(slot)) { slots.append(Int(slot)) }
            }
        }
    }

    /// The finest level whose cells are at least `extent` map points wide.
    static func level(forExtent extent: Double) -> Int {
        guard extent > 0 else { return finestLevel }
        let cellsPerSide = WebMercator.worldSizeMapPoints / extent
        guard cellsPerSide >= 1 else { return 0 }
        guard cellsPerSide < Double(1 << finestLevel) else { return finestLevel }
        let level = Int(cellsPerSide.rounded(.down)).bitWidth - 1 - Int(cellsPerSide.rounded(.down)).leadingZeroBitCount
        return min(level, finestLevel)
    }

    private static func cellRange(_ low: Double, _ high: Double, level: Int) -> (Int, Int) {
        let cellsPerSide = 1 << level
        let cellSize = WebMercator.worldSizeMapPoints / Double(cellsPerSide)
        return (clamped(low / cellSize, cellsPerSide), clamped(high / cellSize, cellsPerSide))
    }

    @inline(__always)
    private static func clamped(_ cell: Double, _ cellsPerSide: Int) -> Int {
        guard cell > 0 else { return 0 }
        return cell >= Double(cellsPerSide - 1) ? cellsPerSide - 1 : Int(cell)
    }

    @inline(__always)
    private static func key(level: Int, cx: Int, cy: Int) -> Int {
        level << 58 | cx << 29 | cy
    }
}
