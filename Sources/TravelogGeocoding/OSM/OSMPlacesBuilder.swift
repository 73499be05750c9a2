import TravelogCore
import TravelogOSM

/// Turns an `.osm.pbf` extract into the places Travelog keeps (``OSMPlace``), in three reads of
/// the file so that only what is kept is held in memory: relations (which multipolygons are
/// places, which are administrative boundaries, and their outer ways), then ways (places, streets, those outer ways; which nodes they
/// need), then nodes (places, and the coordinates of the nodes kept ways use).
public struct OSMPlacesBuilder: Sendable {
    /// A read of the file: which of the three, and bytes done of the file's size.
    public struct Progress: Sendable {
        public let pass: Int
        public let passes: Int
        public let bytesDone: Int
        public let totalBytes: Int
    }

    public var reader: OSMPBFReader

    public init(reader: OSMPBFReader = OSMPBFReader()) {
        self.reader = reader
    }

    /// The places of the extract at `path`, sorted by element type and id, and its header.
    /// - Throws: ``OSMPBFError`` for an unreadable or damaged file.
    /// - Complexity: O(file size) time; memory O(places kept + nodes their ways use).
    public func places(fromFile path: String, totalBytes: Int,
                       progress: (Progress) -> Void = { _ in }) throws -> (places: [OSMPlace], header: OSMHeader?) {
        var header: OSMHeader?
        // Pass 1: multipolygons that are places.
        var relations: [(id: Int64, kind: OSMPlace.Kind, category: String?, tags: [OSMTag], outerWays: [Int64])] = []
        var neededWays = Set<Int64>()
        var relationReader = reader
        relationReader.elements = .relations
        try relationReader.read(path: path, header: { header = $0 }) { block in
            progress(Progress(pass: 1, passes: 3, bytesDone: block.byteRange.upperBound, totalBytes: totalBytes))
            for relation in block.relations {
                let type = relation.tags[osmKey: "type"]
                guard type == "multipolygon" || type == "boundary" else { continue }
                var (kind, category): (OSMPlace.Kind, String?) = type == "boundary" ? ([], nil) : OSMPlaceTags.classify(relation.tags, isWay: false)
                if OSMPlaceTags.administrativeLevel(relation.tags) != nil { kind.insert(.boundary) }
                guard !kind.isEmpty else { continue }
                let outer = relation.members.filter { $0.type == .way && $0.role != "inner" }.map(\.id)
                neededWays.formUnion(outer)
                relations.append((relation.id, kind, category, relation.tags, outer))
            }
        }
        // Pass 2: ways that are places or streets, and the outer ways of the multipolygons.
        var ways: [(way: OSMWay, kind: OSMPlace.Kind, category: String?)] = []
        var memberWays: [Int64: [Int64]] = [:]
        var neededNodes = Set<Int64>()
        var wayReader = reader
        wayReader.elements = .ways
        try wayReader.read(path: path) { block in
            progress(Progress(pass: 2, passes: 3, bytesDone: block.byteRange.upperBound, totalBytes: totalBytes))
            for way in block.ways {
                let (kind, category) = OSMPlaceTags.classify(way.tags, isWay: true)
                if !kind.isEmpty {
                    ways.append((way, kind, category))
                    neededNodes.formUnion(way.nodeIDs)
                }
                if neededWays.contains(way.id) {
                    memberWays[way.id] = way.nodeIDs
                    neededNodes.formUnion(way.nodeIDs)
                }
            }
        }
        // Pass 3: nodes that are places, and the coordinates of the nodes kept ways use.
        var places: [OSMPlace] = []
        var coordinates: [Int64: Coordinate] = [:]
        coordinates.reserveCapacity(neededNodes.count)
        var nodeReader = reader
        nodeReader.elements = .nodes
        try nodeReader.read(path: path) { block in
            progress(Progress(pass: 3, passes: 3, bytesDone: block.byteRange.upperBound, totalBytes: totalBytes))
            for node in block.nodes {
                let needed = neededNodes.contains(node.id)
                guard needed || !node.tags.isEmpty, let coordinate = Coordinate(validLatitude: node.latitude, longitude: node.longitude) else { continue }
                if needed { coordinates[node.id] = coordinate }
                guard !node.tags.isEmpty else { continue }
                let (kind, category) = OSMPlaceTags.classify(node.tags, isWay: false)
                guard !kind.isEmpty else { continue }
                places.append(OSMPlace(elementType: .node, id: node.id, kind: kind, coordinate: coordinate, category: category,
                                       tags: OSMPlaceTags.kept(node.tags, category: category)))
            }
        }
        for (way, wayKind, category) in ways {
            let line = way.nodeIDs.compactMap { coordinates[$0] }
            guard let middle = line.isEmpty ? nil : line[line.count / 2] else { continue }  // none of its nodes in the extract
            var kind = wayKind
            let tags = OSMPlaceTags.kept(way.tags, category: category)
            if way.isClosed, line.count >= 4, !kind.subtracting(.street).isEmpty {
                kind.insert(.area)
                kind.remove(.street)
                let centroid = OSMPlaceGeometry.centroid([line]) ?? middle
                places.append(OSMPlace(elementType: .way, id: way.id, kind: kind, coordinate: centroid, category: category, tags: tags, geometry: [line]))
            } else {
                places.append(OSMPlace(elementType: .way, id: way.id, kind: kind, coordinate: middle, category: category, tags: tags, geometry: [line]))
            }
        }
        for relation in relations {
            let pieces = relation.outerWays.compactMap { memberWays[$0] }
            let idRings = OSMPlaceGeometry.rings(pieces)
            var kind = relation.kind.subtracting(.street)
            if !kind.subtracting(.boundary).isEmpty { kind.insert(.area) }
            // A boundary is measured: one cut by the extract's edge (a way, a node or a ring's piece
            // missing) would measure too small, so it is kept only whole.
            if kind.contains(.boundary) {
                let whole = pieces.count == relation.outerWays.count
                    && idRings.reduce(0, { $0 + $1.count - 1 }) == pieces.reduce(0, { $0 + max(0, $1.count - 1) })
                    && idRings.allSatisfy { $0.allSatisfy { coordinates[$0] != nil } }
                if !whole { kind.remove(.boundary) }
                guard !kind.isEmpty else { continue }
            }
            let rings = idRings.map { $0.compactMap { coordinates[$0] } }.filter { $0.count >= 4 }
            guard let centroid = OSMPlaceGeometry.centroid(rings) else { continue }
            let kept = OSMPlaceTags.kept(relation.tags, category: relation.category)
                + (kind.contains(.boundary) ? relation.tags.filter { $0.key == "admin_level" }.map { ($0.key, $0.value) } : [])
            places.append(OSMPlace(elementType: .relation, id: relation.id, kind: kind,
                                   coordinate: centroid, category: relation.category, tags: kept, geometry: rings))
        }
        places.sort { ($0.elementType, $0.id) < ($1.elementType, $1.id) }
        return (places, header)
    }
}
