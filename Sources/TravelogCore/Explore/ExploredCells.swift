import Foundation

/// Where a person has been: the cells of about 25 m × 25 m that their paths crossed (Dawarich's fog of
/// war, Reitti's coverage), kept as fixes arrive so that new fixes cost only themselves.
///
/// The grid is nearly equal-area: rows of ``cellSizeMeters`` of latitude, each cut into as many
/// columns as fit ``cellSizeMeters`` wide at the row's middle latitude, so a cell is about 25 m on
/// each side from the equator to the poles (a Web Mercator grid would shrink to 12 m at 60°N).
/// Between two consecutive fixes of a device the path is followed in steps of half a cell, so a
/// drive at 30 m/s with a fix a second leaves no holes; it is not followed across a silence longer
/// than ``gapSeconds`` (the tile index's break of the line, ``HistoryTileIndex``'s rule) nor faster
/// than an airliner's speed (``TransportModeClassifier/Thresholds/airborneFromMetersPerSecond``):
/// a flight explores only its two ends.
///
/// For drawing, each cell is filed under the zoom-13 tile of its middle, and each zoom 0…12 keeps
/// the pixels of its 256-pixel tiles that hold a cell (``ExploredCells+Tiles.swift``).
///
/// - Complexity: adding a fix is O(steps to the previous fix of its device), O(1) for fixes a step
///   apart; a new cell costs 14 set insertions more.
public struct ExploredCells: Sendable {
    /// The side of a cell, metres.
    public static let cellSizeMeters: Double = 25
    /// A longer silence between two fixes is not followed (seconds): the tile index's break.
    public static let gapSeconds: Double = 3600
    /// Two fixes farther apart than this speed allows are a flight: not followed (m/s).
    public static let flightMetersPerSecond: Double = TransportModeClassifier.Thresholds().airborneFromMetersPerSecond
    /// Metres per degree of latitude on the mean sphere.
    static let metersPerDegree = WGS84.meanRadiusMeters * Double.pi / 180
    /// The height of a row, degrees of latitude.
    static let rowDegrees = cellSizeMeters / metersPerDegree
    /// How many rows span the poles.
    static let rowCount = Int((180 / rowDegrees).rounded(.up))

    /// Zoom-13 tile (row << 32 | column) → the cells whose middle lies in it (row << 32 | column).
    private(set) var buckets: [UInt64: Set<UInt64>] = [:]
    /// Per zoom 0…``pixelZooms``: tile (row << 32 | column) → pixels (y << 8 | x) holding a cell's middle.
    private(set) var pixels: [[UInt64: Set<UInt16>]] = Array(repeating: [:], count: pixelZoomCount)
    /// The last fix of each device: where and when.
    private var lastFix: [UInt16: (latitude: Double, longitude: Double, seconds: Double)] = [:]
    /// The cell inserted last: consecutive points mostly fall in it, and need no lookup.
    private var lastCell = UInt64.max

    /// How many cells were visited.
    public private(set) var count = 0
    /// Their area together, square metres (on the mean sphere).
    public private(set) var areaSquareMeters: Double = 0

    /// No cell visited.
    public init() {}

    /// The explored area, km².
    public var areaSquareKilometers: Double { areaSquareMeters / 1_000_000 }

    /// Adds a fix of a device (an index the caller assigns), later than the device's fixes added
    /// before, with the path from the device's previous fix.
    public mutating func append(latitude: Double, longitude: Double, seconds: Double, device: UInt16) {
        if let last = lastFix[device] {
            let followed = Self.steps(fromLatitude: last.latitude, longitude: last.longitude, toLatitude: latitude,
                                      longitude: longitude, durationSeconds: seconds - last.seconds)
            if followed > 1 {
                for step in 1..<followed {
                    let fraction = Double(step) / Double(followed)
                    insert(latitude: last.latitude + (latitude - last.latitude) * fraction,
                           longitude: last.longitude + (longitude - last.longitude) * fraction)
                }
            }
        }
        insert(latitude: latitude, longitude: longitude)
        lastFix[device] = (latitude, longitude, seconds)
    }

    /// In how many equal steps the path between two fixes is followed (each at most half a cell),
    /// or 0 when it is not: a silence longer than ``gapSeconds``, a flight, or across the 180th meridian.
    static func steps(fromLatitude: Double, longitude fromLongitude: Double, toLatitude: Double, longitude toLongitude: Double,
                      durationSeconds: Double) -> Int {
        let deltaLongitude = toLongitude - fromLongitude
        guard durationSeconds <= gapSeconds, abs(deltaLongitude) < 180 else { return 0 }
        let middle = (fromLatitude + toLatitude) / 2 * Double.pi / 180
        let east = deltaLongitude * cos(middle) * metersPerDegree, north = (toLatitude - fromLatitude) * metersPerDegree
        let meters = (east * east + north * north).squareRoot()
        guard meters <= flightMetersPerSecond * max(durationSeconds, 1) else { return 0 }
        return Int((meters / (cellSizeMeters / 2)).rounded(.up))
    }

    /// Marks the cell of a point visited.
    /// - Returns: whether it is a new cell.
    @discardableResult
    public mutating func insert(latitude: Double, longitude: Double) -> Bool {
        let cell = Self.cell(latitude: latitude, longitude: longitude)
        guard cell != lastCell else { return false }
        lastCell = cell
        let bounds = Self.bounds(of: cell)
        let middle = MapPoint(x: WebMercator.x(longitudeDegrees: (bounds.west + bounds.east) / 2),
                              y: WebMercator.y(latitudeDegrees: max(-WebMercator.maximumLatitudeDegrees,
                                                                    min(WebMercator.maximumLatitudeDegrees, (bounds.south + bounds.north) / 2))))
        let tile = Self.tileKey(middle, zoom: Self.bucketZoom)
        guard buckets[tile, default: []].insert(cell).inserted else { return false }
        count += 1
        areaSquareMeters += Self.areaSquareMeters(of: cell)
        let x = Int(min(max(middle.x, 0), WebMercator.worldSizeMapPoints - 1))
        let y = Int(min(max(middle.y, 0), WebMercator.worldSizeMapPoints - 1))
        for zoom in 0..<Self.pixelZoomCount {
            let shift = Tile.maximumZoom - 8 - zoom
            let px = x >> shift, py = y >> shift
            pixels[zoom][UInt64(py >> 8) << 32 | UInt64(px >> 8), default: []].insert(UInt16(py & 255) << 8 | UInt16(px & 255))
        }
        return true
    }

    /// Whether the cell of a point was visited.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        let cell = Self.cell(latitude: latitude, longitude: longitude)
        let bounds = Self.bounds(of: cell)
        let middle = MapPoint(x: WebMercator.x(longitudeDegrees: (bounds.west + bounds.east) / 2),
                              y: WebMercator.y(latitudeDegrees: max(-WebMercator.maximumLatitudeDegrees,
                                                                    min(WebMercator.maximumLatitudeDegrees, (bounds.south + bounds.north) / 2))))
        return buckets[Self.tileKey(middle, zoom: Self.bucketZoom)]?.contains(cell) ?? false
    }

    /// Whether a visited cell lies within about `meters` of a point: the point's own cell or the cell
    /// `meters` away in any of eight directions (a street counts as covered there).
    public func isExplored(near latitude: Double, longitude: Double, withinMeters meters: Double) -> Bool {
        if contains(latitude: latitude, longitude: longitude) { return true }
        let north = meters / Self.metersPerDegree
        let east = north / max(0.01, cos(latitude * Double.pi / 180))
        let diagonal = 0.5.squareRoot()
        for (dy, dx) in [(1.0, 0.0), (-1, 0), (0, 1), (0, -1), (diagonal, diagonal), (diagonal, -diagonal), (-diagonal, diagonal), (-diagonal, -diagonal)]
        where contains(latitude: latitude + dy * north, longitude: longitude + dx * east) {
            return true
        }
        return false
    }

    /// Calls `body` with every visited cell's key (row << 32 | column), in no order.
    public func forEachCell(_ body: (UInt64) throws -> Void) rethrows {
        for bucket in buckets.values { for cell in bucket { try body(cell) } }
    }

    // MARK: the grid

    /// The key (row << 32 | column) of the cell holding a point.
    public static func cell(latitude: Double, longitude: Double) -> UInt64 {
        let row = min(rowCount - 1, max(0, Int((latitude + 90) / rowDegrees)))
        let columns = columnCount(row: row)
        var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        let column = min(columns - 1, max(0, Int(wrapped / 360 * Double(columns))))
        return UInt64(row) << 32 | UInt64(column)
    }

    /// How many cells a row holds: as many as fit ``cellSizeMeters`` wide at its middle latitude.
    static func columnCount(row: Int) -> Int {
        let middle = (-90 + (Double(row) + 0.5) * rowDegrees) * Double.pi / 180
        return max(1, Int((360 * cos(middle) * metersPerDegree / cellSizeMeters).rounded(.down)))
    }

    /// A cell's edges, degrees.
    public static func bounds(of cell: UInt64) -> (south: Double, north: Double, west: Double, east: Double) {
        let row = Int(cell >> 32), column = Int(cell & 0xFFFF_FFFF)
        let width = 360 / Double(columnCount(row: row))
        let south = -90 + Double(row) * rowDegrees
        return (south, min(90, south + rowDegrees), -180 + Double(column) * width, -180 + Double(column + 1) * width)
    }

    /// A cell's area on the mean sphere, m²: R² · Δλ · (sin φ₂ − sin φ₁).
    public static func areaSquareMeters(of cell: UInt64) -> Double {
        let box = bounds(of: cell)
        let radius = WGS84.meanRadiusMeters
        return radius * radius * (box.east - box.west) * Double.pi / 180
            * (sin(box.north * Double.pi / 180) - sin(box.south * Double.pi / 180))
    }
}
