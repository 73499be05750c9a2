import Foundation
import TravelogOSM

/// The `highway=*` ways an extract maps as areas (`area=yes`: squares and pedestrian streets drawn as
/// their outline). Travelog walks along such an outline and across it (`AreaCrossings`); Valhalla
/// leaves these ways out of its graph (measured on the Helsinki extract: no route of its uses one),
/// so a walk that takes one in either engine compares two different networks, not two routers. A
/// line touches an area when one of its segments joins two nodes of the same outline (along it or
/// across it). Nodes are keyed by their coordinates in millionths of a degree, what both engines'
/// answers give (Travelog's GeoJSON coordinates, Valhalla's polyline6 shape).
struct AreaSegments {
    private var areasAt: [Int64: [Int32]] = [:]

    init(extract path: String) throws {
        var coordinates: [Int64: Int64] = [:]
        var outlines: [[Int64]] = []
        try OSMPBFReader(threads: 1).read(path: path) { block in
            for node in block.nodes { coordinates[node.id] = Self.key(latitude: node.latitude, longitude: node.longitude) }
            for way in block.ways where way.tags[osmKey: "highway"] != nil && way.tags[osmKey: "area"] == "yes" {
                outlines.append(way.nodeIDs)
            }
        }
        for (index, outline) in outlines.enumerated() {
            for key in Set(outline.compactMap { coordinates[$0] }) { areasAt[key, default: []].append(Int32(index)) }
        }
    }

    /// Whether a line (latitude, longitude pairs) runs along or across an area.
    func touches(_ line: [(latitude: Double, longitude: Double)]) -> Bool {
        let points = line.map { Self.key(latitude: $0.latitude, longitude: $0.longitude) }
        return zip(points, points.dropFirst()).contains { first, second in
            guard let here = areasAt[first], let there = areasAt[second] else { return false }
            return here.contains(where: there.contains)
        }
    }

    private static func key(latitude: Double, longitude: Double) -> Int64 {
        (Int64((latitude * 1e6).rounded()) + 90_000_000) << 32 | (Int64((longitude * 1e6).rounded()) + 180_000_000)
    }

    /// Travelog's route line from its JSON answer (`polyline.coordinates`, longitude first).
    static func travelogLine(_ body: [UInt8]) -> [(latitude: Double, longitude: Double)] {
        let route = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let coordinates = (route?["polyline"] as? [String: Any])?["coordinates"] as? [[Double]] ?? []
        return coordinates.compactMap { $0.count >= 2 ? ($0[1], $0[0]) : nil }
    }

    /// Valhalla's route line from its JSON answer (each leg's `shape`, an encoded polyline of precision 6).
    static func valhallaLine(_ body: [UInt8]) -> [(latitude: Double, longitude: Double)] {
        let trip = ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["trip"] as? [String: Any]
        let legs = trip?["legs"] as? [[String: Any]] ?? []
        return legs.flatMap { decodePolyline6(($0["shape"] as? String) ?? "") }
    }

    /// Google's encoded polyline algorithm at 1e-6 (Valhalla's precision).
    static func decodePolyline6(_ text: String) -> [(latitude: Double, longitude: Double)] {
        let bytes = Array(text.utf8)
        var index = 0, latitude = 0, longitude = 0
        var points: [(latitude: Double, longitude: Double)] = []
        func next() -> Int? {
            var result = 0, shift = 0
            while index < bytes.count {
                let chunk = Int(bytes[index]) - 63
                index += 1
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return (result & 1) != 0 ? ~(result >> 1) : result >> 1 }
            }
            return nil
        }
        while index < bytes.count, let dLatitude = next(), let dLongitude = next() {
            latitude += dLatitude
            longitude += dLongitude
            points.append((Double(latitude) / 1e6, Double(longitude) / 1e6))
        }
        return points
    }
}

/// An extract cut from a larger one by a bounding box keeps the ways that cross its edge with only
/// the nodes inside (the Helsinki extract: 421 ways, 191 of them highways). Travelog routes along the
/// part inside; Valhalla leaves such a way out whole, so a walk near the edge compares two networks.
/// Both engines are given the extract without those ways (`osmium removeid`, Debian's osmium-tool).
enum CompleteWaysExtract {
    /// Writes `folder/NAME` (the same file name, so that Travelog's graph keeps its name) and
    /// answers its path and how many ways were left out.
    static func write(from extract: String, into folder: String) throws -> (path: String, waysRemoved: Int) {
        var nodes = Set<Int64>()
        var ways: [(id: Int64, nodeIDs: [Int64])] = []
        try OSMPBFReader(threads: 1).read(path: extract) { block in
            for node in block.nodes { nodes.insert(node.id) }
            for way in block.ways { ways.append((way.id, way.nodeIDs)) }
        }
        let cut = ways.filter { !$0.nodeIDs.allSatisfy(nodes.contains) }.map(\.id)
        let ids = folder + "/ways-cut-by-the-edge.txt"
        try cut.map { "w\($0)\n" }.joined().write(toFile: ids, atomically: true, encoding: .utf8)
        let path = folder + "/" + URL(fileURLWithPath: extract).lastPathComponent
        _ = try CommandOutput.of(command: "osmium", ["removeid", "--no-progress", "-O", "-o", path, "-i", ids, extract])
        return (path, cut.count)
    }
}
