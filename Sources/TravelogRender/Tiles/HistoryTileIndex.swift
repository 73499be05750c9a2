import Foundation
import TravelogCore
import TravelogStore

/// A spatial index of a location history for drawing tiles, so that a tile's cost depends on
/// what lies in the tile, not on the size of the history.
///
/// The fixes are kept at several levels: every fix (drawn from zoom ``rawZoom`` in), and
/// pre-simplified levels for zooms 2, 4, … 14, where a fix closer than one pixel of the level's
/// zoom to the last fix kept for its device is merged into it (its weight, which the heatmap
/// counts, grows). Each level files its vertices, and the start of every segment, under the
/// squares of a grid of tiles at the level's zoom, so a tile reads only the squares it covers.
/// A device's track pauses (no line) after a silence of ``gapSeconds`` or a jump of more than
/// half the world (across the 180th meridian).
///
/// Fixes are added per device in time order, which is also how new fixes arrive live; a fix
/// older than the last one of its device cannot be added (``append(_:deviceIndex:)`` says so)
/// and the index must be built anew. Times of merged fixes are those of the first one, so a
/// range that starts or ends in the middle of a merged group is drawn to the group's pixel.
///
/// - Complexity: adding a fix is O(levels + squares its segment crosses); a tile query is
///   O(squares covered + vertices filed there).
public struct HistoryTileIndex: Sendable {
    /// A pause longer than this (seconds) breaks the line, as on the page's path.
    public static let gapSeconds: Double = 3600
    /// Tiles at this zoom and deeper read every fix.
    public static let rawZoom = 15
    /// The zooms of the simplified levels.
    static let levelZooms = [2, 4, 6, 8, 10, 12, 14]
    /// The grid of the level of every fix.
    static let rawBucketZoom = 16

    /// The simplified levels in the order of ``levelZooms``, then every fix.
    private(set) var levels: [IndexLevel]
    private var lastSeconds: [UInt16: Double] = [:]
    /// Time, rect and devices of the fixes in blocks, for a range's bounds and count.
    private var blocks = FixBlocks()
    /// The cells of about 25 m the paths crossed (the Explored layer, `travelog explore`), kept
    /// with every fix; not saved, made again from every fix when a saved index is read.
    public private(set) var explored = ExploredCells()

    /// An empty index.
    public init() {
        levels = Self.levelZooms.map { zoom in
            IndexLevel(bucketZoom: zoom, spacingMapPoints: Tile.sizeMapPoints(zoom: zoom) / WebMercator.tileSizePixels)
        } + [IndexLevel(bucketZoom: Self.rawBucketZoom, spacingMapPoints: 0)]
    }

    /// Writes the index (``HistoryIndexFile``).
    /// - Complexity: O(vertices of all levels).
    func write(to writer: inout IndexFileWriter) throws(HistoryIndexFileError) {
        try writer.write(UInt32(levels.count))
        for level in levels { try level.write(to: &writer) }
        try writer.write(column: Array(lastSeconds.keys))
        try writer.write(column: Array(lastSeconds.values))
        try blocks.write(to: &writer)
    }

    /// Reads an index that ``write(to:)`` wrote, with the same levels.
    /// - Complexity: O(vertices of all levels).
    init(reading reader: inout IndexFileReader) throws(HistoryIndexFileError) {
        self.init()
        guard try reader.read(UInt32.self) == UInt32(levels.count) else { throw .inconsistent("the number of levels") }
        for number in levels.indices {
            levels[number] = try IndexLevel(reading: &reader, bucketZoom: levels[number].bucketZoom,
                                            spacingMapPoints: levels[number].spacingMapPoints)
        }
        let devices: [UInt16] = try reader.readColumn(), times: [Double] = try reader.readColumn()
        guard devices.count == times.count else { throw .inconsistent("the devices' last times") }
        lastSeconds = Dictionary(zip(devices, times), uniquingKeysWith: { $1 })
        blocks = try FixBlocks(reading: &reader, fixCount: fixCount)
        let raw = levels[levels.count - 1]
        for index in 0..<raw.count {
            let point = raw.point(index)
            explored.append(latitude: WebMercator.latitudeDegrees(y: point.y), longitude: WebMercator.longitudeDegrees(x: point.x),
                            seconds: raw.seconds[index], device: raw.device[index])
        }
    }

    /// A device's fixes in the index: how many, and the times of the first and the last.
    struct FixSpan: Hashable, Sendable {
        var fixCount: Int
        var firstSeconds: Double
        var lastSeconds: Double
    }

    /// The span of each device index's fixes.
    /// - Complexity: O(fixes).
    func fixSpans() -> [Int: FixSpan] {
        let raw = levels[levels.count - 1]
        var spans = [FixSpan?](repeating: nil, count: Int(UInt16.max) + 1)
        for index in 0..<raw.count {
            let device = Int(raw.device[index]), time = raw.seconds[index]
            if spans[device] == nil {
                spans[device] = FixSpan(fixCount: 1, firstSeconds: time, lastSeconds: time)
            } else {
                spans[device]!.fixCount += 1
                spans[device]!.lastSeconds = time
            }
        }
        return Dictionary(uniqueKeysWithValues: spans.indices.compactMap { device in spans[device].map { (device, $0) } })
    }

    /// How many fixes the index holds.
    public var fixCount: Int { levels[levels.count - 1].count }
    /// How many vertices all levels hold together (the index's size).
    public var vertexCount: Int { levels.reduce(0) { $0 + $1.count } }

    /// Adds a fix of a device (an index the caller assigns, 0 to 65535).
    /// - Returns: `false`, adding nothing, when the fix is older than the device's last one.
    @discardableResult
    public mutating func append(_ location: Location, deviceIndex: Int) -> Bool {
        precondition((0...Int(UInt16.max)).contains(deviceIndex), "device index \(deviceIndex) out of range")
        let id = UInt16(deviceIndex)
        let time = location.timestamp.timeIntervalSince1970
        if let last = lastSeconds[id], time < last { return false }
        lastSeconds[id] = time
        let point = MapPoint(location.coordinate)
        let world = WebMercator.worldSizeMapPoints - 1
        let px = UInt32(min(max(point.x.rounded(), 0), world)), py = UInt32(min(max(point.y.rounded(), 0), world))
        for index in levels.indices {
            levels[index].append(x: px, y: py, seconds: time, device: id, gapSeconds: Self.gapSeconds)
        }
        blocks.append(x: px, y: py, seconds: time, device: id)
        explored.append(latitude: WebMercator.latitudeDegrees(y: Double(py)), longitude: WebMercator.longitudeDegrees(x: Double(px)),
                        seconds: time, device: id)
        return true
    }

    /// Which fixes to draw.
    public struct Filter: Hashable, Sendable {
        /// Earliest time drawn, inclusive (`nil`: from the start).
        public var from: Date?
        /// Latest time drawn, inclusive (`nil`: to the end).
        public var to: Date?
        /// The device indices drawn (`nil`: all).
        public var devices: Set<Int>?

        public init(from: Date? = nil, to: Date? = nil, devices: Set<Int>? = nil) {
            self.from = from
            self.to = to
            self.devices = devices
        }
    }

    /// The level a tile at a zoom reads: the simplified one at least one zoom deeper, or every fix.
    func levelIndex(zoom: Int) -> Int {
        if zoom >= Self.rawZoom { return levels.count - 1 }
        return Self.levelZooms.firstIndex { $0 > zoom } ?? levels.count - 1
    }

    /// The lines and fixes to draw in a map rect at a tile zoom.
    /// - Parameters:
    ///   - mapRect: the area, in map points (a tile's rect grown by what a line or the heatmap's
    ///     kernel reaches into it); x may leave the world by less than a world.
    ///   - zoom: the zoom level the tile is drawn at, which picks the level.
    ///   - filter: the time range and devices.
    ///   - parts: what to collect: a path needs only the lines, a heatmap only the fixes.
    ///   - hiding: zones whose vertices are left out, lines cut where they enter one (a share
    ///     link's privacy zones; a coarse level's line may still cross a zone between two vertices
    ///     outside it, which ``HistoryTileRenderer/erase(_:projection:on:)`` clears).
    /// - Complexity: O(squares covered + vertices filed there), plus a sort of those vertices
    ///   when they are few against the level's size.
    public func content(in mapRect: MapRect, zoom: Int, filter: Filter,
                        parts: HistoryTileContent.Parts = .all, hiding: ZoneFilter? = nil) -> HistoryTileContent {
        let level = levels[levelIndex(zoom: zoom)]
        let found = level.vertices(in: mapRect)
        let from = filter.from?.timeIntervalSince1970 ?? -Double.infinity
        let to = filter.to?.timeIntervalSince1970 ?? Double.infinity
        let hiding = hiding.flatMap { $0.isEmpty ? nil : $0 }
        func accepted(_ index: Int) -> Bool {
            let time = level.seconds[index]
            return time >= from && time <= to && (filter.devices?.contains(Int(level.device[index])) ?? true)
                && !(hiding?.contains(level.point(index)) ?? false)
        }
        var content = HistoryTileContent()
        // Per device, the line being drawn and the vertex it waits for. Vertices come in
        // ascending order and a track's next vertex is the device's next one, so when a device's
        // next vertex found is not the one awaited, that one lies outside and the line has ended.
        var open: [(device: UInt16, awaited: UInt32, line: Int)] = []
        for vertex in found {
            let index = Int(vertex)
            guard accepted(index) else { continue }
            let point = level.point(index)
            let device = level.device[index]
            if parts.contains(.fixes), mapRect.contains(point) {
                content.fixes.append(WeightedMapPoint(point: point, weight: Double(level.weight[index])))
                content.fixDevices.append(Int(device))
            }
            guard parts.contains(.lines) else { continue }
            let slot = open.firstIndex { $0.device == device }
            var line = slot.flatMap { open[$0].awaited == vertex ? open[$0].line : nil }
            let next = level.next[index]
            if next == IndexLevel.noVertex || !accepted(Int(next)) {
                if line == nil { content.lines.append(HistoryTileContent.Line(deviceIndex: Int(device), points: [point])) }
                if let slot { open[slot].awaited = IndexLevel.noVertex }
                continue
            }
            if let line {
                content.lines[line].points.append(level.point(Int(next)))
            } else {
                content.lines.append(HistoryTileContent.Line(deviceIndex: Int(device), points: [point, level.point(Int(next))]))
                line = content.lines.count - 1
            }
            if let slot { open[slot] = (device, next, line!) } else { open.append((device, next, line!)) }
        }
        return content
    }

    /// What a filter accepts: where and how many fixes, of which devices.
    public struct Summary: Hashable, Sendable {
        /// The smallest rect holding the fixes, or ``MapRect/null`` for none.
        public var bounds: MapRect
        /// How many fixes.
        public var fixCount: Int
        /// The device indices of the fixes.
        public var deviceIndices: Set<Int>

        public init(bounds: MapRect, fixCount: Int, deviceIndices: Set<Int>) {
            self.bounds = bounds
            self.fixCount = fixCount
            self.deviceIndices = deviceIndices
        }
    }

    /// The bounds, number and devices of the fixes a filter accepts, exact, read from summaries of blocks
    /// of fixes (cheap for any range, so a page can place the map before drawing tiles).
    /// - Complexity: O(fixes / ``FixBlocks/size`` + fixes of the blocks the filter cuts).
    /// - Parameter hiding: zones whose fixes are not counted (a share link's privacy zones): the
    ///   blocks whose rect meets one are read fix by fix.
    public func summary(filter: Filter, hiding: ZoneFilter? = nil) -> Summary {
        blocks.summary(of: levels[levels.count - 1], from: filter.from?.timeIntervalSince1970 ?? -Double.infinity,
                       to: filter.to?.timeIntervalSince1970 ?? Double.infinity, devices: filter.devices,
                       hiding: hiding.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The smallest rect holding the fixes a filter accepts, or ``MapRect/null`` for none.
    /// - Complexity: that of ``summary(filter:)``.
    public func bounds(filter: Filter) -> MapRect {
        summary(filter: filter).bounds
    }
}
