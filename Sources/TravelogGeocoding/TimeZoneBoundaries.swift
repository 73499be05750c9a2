import TravelogCore

/// The world's time-zone boundaries, for the zone a coordinate lies in rather than the zone of the
/// nearest town: timezone-boundary-builder's polygons (ODbL 1.0, territorial waters included, the
/// open sea as `Etc/GMT±N`), shipped by PyPI's timezonefinder 8.2.5 and converted once by
/// `scripts/build-timezones.py` (`make timezones`).
///
/// The file (extension `.tlzones`, all integers little-endian) is:
///
/// | bytes                  | content                                                                  |
/// |------------------------|--------------------------------------------------------------------------|
/// | 56                     | header: magic `TLZONES1`, then UInt32s: version (1), zone count Z, polygon count P, ring count R, point count N, cell size S (in units), units per degree U (100 000), grid columns C, grid rows W, name bytes B, point bytes V, cell-data words D |
/// | 4 × (Z + 1), B + pad   | zone-name offsets (first 0, last B) and the IANA names, UTF-8, padded to 4 bytes |
/// | 2 × P + pad            | the zone of each polygon (UInt16), padded to 4 bytes                      |
/// | 4 × (P + 1)            | the first ring of each polygon: its outer ring, then its holes             |
/// | 4 × (R + 1)            | the first point of each ring; rings are closed (last point = first)       |
/// | 4 × C × W              | the grid of S-unit cells, row-major from (90° S, 180° W): bit 31 set = the whole cell is one zone (the low bits; 0x7FFFFFFF: none), else the word offset of the cell's record |
/// | 4 × D                  | cell records: candidate count K, index T from which every candidate has the same zone, then per candidate: polygon \| (cell corner inside) << 31, run count, runs of (first edge, edge count) |
/// | V                      | the points: zig-zag LEB128 varints, longitude then latitude, each the difference from the previous point (the first from 0), in 1/U degrees; edge i joins points i and i + 1 |
///
/// A lookup finds the point's cell (0.25°; 94 % of cells are one zone and answer at once). In a
/// cell where zones meet, a candidate polygon contains the point when the parity of the polygon's
/// edges crossing the path from the cell's south-west corner east along the cell's bottom and then
/// north to the point, flipped by whether the corner is inside (computed by the build script with
/// the even-odd rule), is odd: only the edges that touch the cell can cross that path, so a test
/// costs the polygon's edges in the cell, not its whole outline. Holes are rings of their polygon,
/// so they flip the parity like any edge. Candidates are tried zone by zone; once only one zone is
/// left it is the answer without a test, since the polygons tile the world.
///
/// Coordinates are quantised to 1e-5° (about 1 m); the source's borders are much coarser than that.
/// Every offset, reference and point is checked when the file is loaded, so a loaded value is
/// trusted afterwards. The file is mapped rather than read, and the grid, the records and the
/// points are used where they lie (the points decoded edge by edge, ``PackedPoints``): after the
/// load's check the pages leave memory, and lookups bring back only those they touch.
public struct TimeZoneBoundaries: Sendable {
    /// The first eight bytes of every time-zone file.
    public static let magic: [UInt8] = Array("TLZONES1".utf8)
    /// The format version this code reads.
    public static let formatVersion: UInt32 = 1
    /// The file name `make timezones` writes, in `.build-data/`.
    public static let defaultFileName = "timezones.tlzones"
    static let headerBytes = 56
    static let wholeCellFlag: UInt32 = 0x8000_0000
    static let noZone: UInt32 = 0x7FFF_FFFF

    /// Where the boundaries were loaded from (for messages).
    public let path: String
    /// The IANA identifiers of the zones, in the order the polygons refer to them.
    public let zoneIdentifiers: [String]
    let polygonZones: [UInt16]
    let polygonFirstRing: [UInt32]
    let ringFirstPoint: [UInt32]
    /// The grid and the cell records, read where they lie in the mapped file.
    let cells: MappedUInt32Column
    let cellRecords: MappedUInt32Column
    /// The rings' points (in 1/`unitsPerDegree` degrees), decoded where a lookup needs them.
    let points: PackedPoints
    let cellUnits: Int64
    let unitsPerDegree: Int64
    let columns: Int
    let rows: Int

    /// The number of polygons (each an outer ring with its holes).
    public var polygonCount: Int { polygonZones.count }

    /// The number of points of all rings.
    public var pointCount: Int { points.count }

    /// The IANA identifier of the zone a coordinate lies in (`Etc/GMT±N` at sea), or `nil` where
    /// the data has none.
    /// - Complexity: O(1) in a cell of one zone; otherwise O(e), e the candidate polygons' edges in
    ///   the point's 0.25° cell.
    public func timeZoneIdentifier(for coordinate: Coordinate) -> String? {
        zoneIndex(for: coordinate).map { zoneIdentifiers[$0] }
    }

    /// The index in `zoneIdentifiers` of the zone a coordinate lies in, or `nil` where the data has none.
    /// - Complexity: as `timeZoneIdentifier(for:)`.
    public func zoneIndex(for coordinate: Coordinate) -> Int? {
        let x = coordinate.longitude * Double(unitsPerDegree), y = coordinate.latitude * Double(unitsPerDegree)
        let west = -180 * unitsPerDegree, south = -90 * unitsPerDegree
        let column = min(columns - 1, max(0, Int(((x - Double(west)) / Double(cellUnits)).rounded(.down))))
        let row = min(rows - 1, max(0, Int(((y - Double(south)) / Double(cellUnits)).rounded(.down))))
        let entry = cells[row * columns + column]
        if entry & Self.wholeCellFlag != 0 {
            let zone = entry & ~Self.wholeCellFlag
            return zone == Self.noZone ? nil : Int(zone)
        }
        return zoneIndex(x: x, y: y, record: Int(entry),
                         cornerX: west + Int64(column) * cellUnits, cornerY: south + Int64(row) * cellUnits)
    }
}
