import TravelogCore
import TravelogStore

/// Summaries of the fixes of a ``HistoryTileIndex`` in blocks of ``size``, in the order they were
/// added: each block's earliest and latest time, the rect of its fixes and its devices. A range's
/// bounds and fix count are read from the blocks wholly inside the range, and only the blocks it
/// cuts (its two ends, as fixes arrive nearly in time order) are read fix by fix.
///
/// - Complexity: adding a fix is O(1); ``summary(of:from:to:devices:)`` is O(blocks + fixes of
///   the blocks the range or the device filter cuts, or that hold several devices).
struct FixBlocks: Sendable {
    /// Fixes per block.
    static let size = 1024
    /// A block's devices are more than one.
    static let mixedDevices = UInt32.max

    private struct Block: Sendable {
        var earliestSeconds: Double
        var latestSeconds: Double
        var minX: UInt32, minY: UInt32, maxX: UInt32, maxY: UInt32
        /// The device of every fix of the block, or ``FixBlocks/mixedDevices``.
        var device: UInt32
    }

    private var blocks: [Block] = []
    private(set) var count = 0

    init() {}

    /// Writes the blocks (``HistoryIndexFile``).
    func write(to writer: inout IndexFileWriter) throws(HistoryIndexFileError) {
        try writer.write(UInt64(count))
        try writer.write(column: blocks.map(\.earliestSeconds))
        try writer.write(column: blocks.map(\.latestSeconds))
        for column in [blocks.map(\.minX), blocks.map(\.minY), blocks.map(\.maxX), blocks.map(\.maxY), blocks.map(\.device)] {
            try writer.write(column: column)
        }
    }

    /// Reads what ``write(to:)`` wrote for an index of `fixCount` fixes.
    init(reading reader: inout IndexFileReader, fixCount: Int) throws(HistoryIndexFileError) {
        let stored = try reader.read(UInt64.self)
        let earliest: [Double] = try reader.readColumn(), latest: [Double] = try reader.readColumn()
        var columns: [[UInt32]] = []
        for _ in 0..<5 { columns.append(try reader.readColumn()) }
        let blockCount = (fixCount + Self.size - 1) / Self.size
        guard stored == UInt64(fixCount), earliest.count == blockCount, latest.count == blockCount,
              columns.allSatisfy({ $0.count == blockCount }) else {
            throw .inconsistent("the fix blocks")
        }
        count = fixCount
        blocks = (0..<blockCount).map { index in
            Block(earliestSeconds: earliest[index], latestSeconds: latest[index], minX: columns[0][index], minY: columns[1][index],
                  maxX: columns[2][index], maxY: columns[3][index], device: columns[4][index])
        }
    }

    /// Records the next fix (the `count`-th one of the level of every fix).
    mutating func append(x: UInt32, y: UInt32, seconds: Double, device: UInt16) {
        if count % Self.size == 0 {
            blocks.append(Block(earliestSeconds: seconds, latestSeconds: seconds, minX: x, minY: y, maxX: x, maxY: y,
                                device: UInt32(device)))
        } else {
            let last = blocks.count - 1
            blocks[last].earliestSeconds = min(blocks[last].earliestSeconds, seconds)
            blocks[last].latestSeconds = max(blocks[last].latestSeconds, seconds)
            blocks[last].minX = min(blocks[last].minX, x); blocks[last].maxX = max(blocks[last].maxX, x)
            blocks[last].minY = min(blocks[last].minY, y); blocks[last].maxY = max(blocks[last].maxY, y)
            if blocks[last].device != UInt32(device) { blocks[last].device = Self.mixedDevices }
        }
        count += 1
    }

    /// The rect, number and devices of the fixes of `level` (the level of every fix, which these
    /// blocks summarise) between two times, inclusive, of the given devices (`nil`: all), outside
    /// the `hiding` zones (a block whose rect meets one is read fix by fix).
    func summary(of level: IndexLevel, from: Double, to: Double, devices: Set<Int>?,
                 hiding: ZoneFilter? = nil) -> HistoryTileIndex.Summary {
        var minX = UInt32.max, minY = UInt32.max, maxX = UInt32.min, maxY = UInt32.min
        var fixes = 0
        var found = Set<Int>()
        for (number, block) in blocks.enumerated() where block.latestSeconds >= from && block.earliestSeconds <= to {
            let single = block.device == Self.mixedDevices ? nil : Int(block.device)
            if let single, let devices, !devices.contains(single) { continue }
            let first = number * Self.size, end = min(first + Self.size, count)
            let hidden = hiding.map { zones in
                zones.intersects(MapRect(x: Double(block.minX), y: Double(block.minY),
                                         width: Double(block.maxX - block.minX), height: Double(block.maxY - block.minY)))
            } ?? false
            if block.earliestSeconds >= from, block.latestSeconds <= to, devices == nil || single != nil, !hidden {
                minX = min(minX, block.minX); maxX = max(maxX, block.maxX)
                minY = min(minY, block.minY); maxY = max(maxY, block.maxY)
                fixes += end - first
                if let single {
                    found.insert(single)
                } else {
                    // A block of several devices wholly in the range: which ones is read fix by fix.
                    for index in first..<end { found.insert(Int(level.device[index])) }
                }
                continue
            }
            for index in first..<end where level.seconds[index] >= from && level.seconds[index] <= to
                && (devices?.contains(Int(level.device[index])) ?? true) && !(hidden && (hiding?.contains(level.point(index)) ?? false)) {
                minX = min(minX, level.x[index]); maxX = max(maxX, level.x[index])
                minY = min(minY, level.y[index]); maxY = max(maxY, level.y[index])
                fixes += 1
                found.insert(Int(level.device[index]))
            }
        }
        guard fixes > 0 else { return HistoryTileIndex.Summary(bounds: .null, fixCount: 0, deviceIndices: []) }
        return HistoryTileIndex.Summary(
            bounds: MapRect(x: Double(minX), y: Double(minY), width: Double(maxX - minX), height: Double(maxY - minY)),
            fixCount: fixes, deviceIndices: found)
    }
}
