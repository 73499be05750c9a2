import TravelogCore
import TravelogOSM

/// The places of one OpenStreetMap extract (`travelog osm add`), in a compact file read where it
/// lies (`mmap`): opening it costs the check of its bytes, and afterwards only the pages a query
/// touches are resident.
///
/// The file (extension `.tlosm`, integers little-endian, no alignment) is:
///
/// | bytes              | content                                                                        |
/// |--------------------|--------------------------------------------------------------------------------|
/// | 64                 | header: magic `TLOSMPL1`, version (UInt32, 1), place count F, string count S, string bytes B, tag count T, part count P, point count Q (UInt32 each), the extract's bounding box (min latitude, min longitude, max latitude, max longitude: Int32 in 1e-7 degrees), the extract's name (UInt32 string index), 8 zero bytes |
/// | 4 × (S + 1), B     | string offsets (non-decreasing, first 0, last B) and the UTF-8 strings; string 0 is empty |
/// | F, F               | element type (0 node, 1 way, 2 relation), kind (``OSMPlace/Kind`` bits)            |
/// | 8 × F              | OSM ids (Int64); places sorted by (type, id), each once                          |
/// | 4 × F, 4 × F       | latitudes, longitudes (Int32, 1e-7 degrees: OSM's own precision)                 |
/// | 4 × F              | category (UInt32 string index, 0 for none)                                       |
/// | 4 × (F + 1)        | each place's first tag (non-decreasing, last T)                                  |
/// | 4 × (F + 1)        | each place's first geometry part (non-decreasing, last P)                         |
/// | 4 × T, 4 × T       | tag keys, tag values (UInt32 string indexes)                                     |
/// | 4 × (P + 1)        | each part's first point (non-decreasing, last Q)                                 |
/// | 4 × Q, 4 × Q       | point latitudes, longitudes (Int32, 1e-7 degrees)                                 |
///
/// Every offset, index, coordinate, string and the order of the ids is checked when the file is
/// opened, so an opened file is trusted afterwards.
public final class OSMPlacesFile: Sendable {
    public static let magic: [UInt8] = Array("TLOSMPL1".utf8)
    public static let formatVersion: UInt32 = 1
    /// The extension of the files `travelog osm add` writes.
    public static let fileExtension = "tlosm"
    static let headerBytes = 64
    static let unitsPerDegree = 1e7

    /// Where it was opened from (for messages).
    public let path: String
    /// The number of places.
    public let count: Int
    /// The name of the extract it was built from (`Helsinki.osm.pbf`).
    public let sourceName: String
    /// The extract's bounding box, `nil` when the extract did not give one.
    public let boundingBox: OSMHeader.BoundingBox?

    let bytes: MappedBytes
    let layout: Layout

    /// Byte offsets of the sections (see the table above).
    struct Layout: Sendable {
        var stringCount = 0, tagCount = 0, partCount = 0, pointCount = 0
        var stringOffsets = 0, strings = 0
        var types = 0, kinds = 0, ids = 0, latitudes = 0, longitudes = 0, categories = 0, tagStarts = 0, partStarts = 0
        var tagKeys = 0, tagValues = 0, pointStarts = 0, pointLatitudes = 0, pointLongitudes = 0, end = 0

        init() {}

        init(placeCount f: Int, stringCount s: Int, stringBytes b: Int, tagCount t: Int, partCount p: Int, pointCount q: Int) {
            (stringCount, tagCount, partCount, pointCount) = (s, t, p, q)
            stringOffsets = OSMPlacesFile.headerBytes
            strings = stringOffsets + 4 * (s + 1)
            types = strings + b
            kinds = types + f
            ids = kinds + f
            latitudes = ids + 8 * f
            longitudes = latitudes + 4 * f
            categories = longitudes + 4 * f
            tagStarts = categories + 4 * f
            partStarts = tagStarts + 4 * (f + 1)
            tagKeys = partStarts + 4 * (f + 1)
            tagValues = tagKeys + 4 * t
            pointStarts = tagValues + 4 * t
            pointLatitudes = pointStarts + 4 * (p + 1)
            pointLongitudes = pointLatitudes + 4 * q
            end = pointLongitudes + 4 * q
        }
    }

    init(path: String, count: Int, sourceName: String, boundingBox: OSMHeader.BoundingBox?, bytes: MappedBytes, layout: Layout) {
        self.path = path
        self.count = count
        self.sourceName = sourceName
        self.boundingBox = boundingBox
        self.bytes = bytes
        self.layout = layout
    }

    // MARK: reading a checked file

    @inline(__always) func uint32(_ section: Int, _ index: Int) -> Int { Int(bytes.uint32(at: section + 4 * index)) }
    @inline(__always) func int32(_ section: Int, _ index: Int) -> Int32 { Int32(bitPattern: bytes.uint32(at: section + 4 * index)) }
    @inline(__always) func byte(_ section: Int, _ index: Int) -> UInt8 { bytes.base.load(fromByteOffset: section + index, as: UInt8.self) }

    func string(_ index: Int) -> String {
        let start = uint32(layout.stringOffsets, index), end = uint32(layout.stringOffsets, index + 1)
        return String(decoding: UnsafeRawBufferPointer(start: bytes.base + layout.strings + start, count: end - start), as: UTF8.self)
    }

    /// The element type of the place at `index`.
    public func elementType(at index: Int) -> OSMPlace.ElementType { OSMPlace.ElementType(rawValue: byte(layout.types, index)) ?? .node }

    /// The OSM id of the place at `index`.
    public func id(at index: Int) -> Int64 {
        Int64(littleEndian: bytes.base.loadUnaligned(fromByteOffset: layout.ids + 8 * index, as: Int64.self))
    }

    /// What the place at `index` is.
    public func kind(at index: Int) -> OSMPlace.Kind { OSMPlace.Kind(rawValue: byte(layout.kinds, index)) }

    /// The coordinate of the place at `index` (an area's centroid).
    public func coordinate(at index: Int) -> Coordinate {
        Self.coordinate(int32(layout.latitudes, index), int32(layout.longitudes, index))
    }

    static func coordinate(_ latitude: Int32, _ longitude: Int32) -> Coordinate {
        // Checked in range when the file was opened.
        Coordinate(validLatitude: Double(latitude) / unitsPerDegree, longitude: Double(longitude) / unitsPerDegree)
            ?? Coordinate(validLatitude: 0, longitude: 0)!
    }

    /// The place at `index`, with its tags and geometry.
    public func place(at index: Int) -> OSMPlace {
        let category = uint32(layout.categories, index)
        let tags = (uint32(layout.tagStarts, index)..<uint32(layout.tagStarts, index + 1)).map { tag in
            (key: string(uint32(layout.tagKeys, tag)), value: string(uint32(layout.tagValues, tag)))
        }
        let geometry = (uint32(layout.partStarts, index)..<uint32(layout.partStarts, index + 1)).map { part in
            (uint32(layout.pointStarts, part)..<uint32(layout.pointStarts, part + 1)).map { point in
                Self.coordinate(int32(layout.pointLatitudes, point), int32(layout.pointLongitudes, point))
            }
        }
        return OSMPlace(elementType: elementType(at: index), id: id(at: index), kind: kind(at: index), coordinate: coordinate(at: index),
                        category: category == 0 ? nil : string(category), tags: tags, geometry: geometry)
    }

    /// The index of the place of an OSM element, if the file has it.
    /// - Complexity: O(log count).
    public func index(of type: OSMPlace.ElementType, id: Int64) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if (elementType(at: middle), self.id(at: middle)) < (type, id) { low = middle + 1 } else { high = middle }
        }
        return low < count && elementType(at: low) == type && self.id(at: low) == id ? low : nil
    }
}
