import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogOSM
import TravelogTestSupport

/// Writes a test extract to a file and returns its path.
func writeExtract(_ bytes: [UInt8], name: String) throws -> String {
    let path = TestDirectory.makeFolder("osm").appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

@Suite("OSM places: what osm add keeps from an extract")
struct OSMPlacesTests {
    static func tag(_ key: String, _ value: String) -> OSMTag { OSMTag(key: key, value: value) }

    @Test("the seed extract gives its café (address and point of interest), its street and its building's address with a centroid")
    func seedExtract() throws {
        let path = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path
        let (places, header) = try OSMPlacesBuilder().places(fromFile: path, totalBytes: 0)
        #expect(header != nil)
        #expect(places.map(\.elementType) == [.node, .way, .way])
        #expect(places.map(\.id) == [1, 10, 11])
        let cafe = places[0]
        #expect(cafe.kind == [.address, .pointOfInterest])
        #expect(cafe.category == "amenity=cafe")
        #expect(cafe.name == "Café Regatta")
        #expect(cafe[tag: "addr:street"] == "Merikannontie")
        #expect(cafe[tag: "opening_hours"] == "Mo-Su 09:00-21:00")
        let street = places[1]
        #expect(street.kind == .street)
        #expect(street[tag: "name:sv"] == "Mannerheimvägen")
        #expect(street.geometry.first?.count == 3)
        #expect(street.coordinate == street.geometry[0][1])  // the middle node
        let building = places[2]
        #expect(building.kind == [.address, .area])
        #expect(building.category == nil)
        #expect(building.geometry.first?.count == 4)
        // The triangle's centroid is the mean of its three corners (to the 1e-7 degree grid it is rounded to).
        let corners = building.geometry[0].dropLast()
        let latitude = corners.map(\.latitude).reduce(0, +) / 3, longitude = corners.map(\.longitude).reduce(0, +) / 3
        #expect(abs(building.coordinate.latitude - latitude) <= 5e-8 && abs(building.coordinate.longitude - longitude) <= 5e-8)
    }

    @Test("an extract without addresses or points of interest gives its streets only, and a file that opens")
    func noAddresses() throws {
        var writer = PBFTestWriter()
        writer.append(PBFTestWriter.Block(
            denseNodes: [OSMNode(id: 1, latitude: 60, longitude: 25), OSMNode(id: 2, latitude: 60.001, longitude: 25.001),
                         OSMNode(id: 3, latitude: 60.002, longitude: 25, tags: [Self.tag("name", "Bench"), Self.tag("amenity", "bench")])],
            ways: [OSMWay(id: 5, nodeIDs: [1, 2], tags: [Self.tag("highway", "residential"), Self.tag("name", "Katu")]),
                   OSMWay(id: 6, nodeIDs: [1, 2], tags: [Self.tag("highway", "service")])]))
        let path = try writeExtract(writer.bytes, name: "streets.osm.pbf")
        let (places, _) = try OSMPlacesBuilder(reader: OSMPBFReader(threads: 2)).places(fromFile: path, totalBytes: 0)
        #expect(places.map(\.id) == [3, 5])
        #expect(places.allSatisfy { !$0.kind.contains(.address) })
        let file = try OSMPlacesFile(bytes: OSMPlacesFile.encode(places, sourceName: "streets.osm.pbf", boundingBox: nil))
        #expect(file.count == 2)
        #expect(file.boundingBox == nil)
        #expect(file.place(at: 1) == places[1])
    }

    @Test("a named administrative boundary is kept whole with its admin_level; one cut by the extract's edge is not; neither is an area of interest")
    func administrativeBoundaries() throws {
        // A square of 0.01° in four ways (two of them reversed); a second relation lacks a way; a third a node.
        let corners = [(60.0, 25.0), (60.0, 25.01), (60.01, 25.01), (60.01, 25.0)]
        var nodes = corners.enumerated().map { OSMNode(id: Int64($0.offset + 1), latitude: $0.element.0, longitude: $0.element.1) }
        nodes.append(OSMNode(id: 9, latitude: 60.005, longitude: 25.02))
        let ways = [OSMWay(id: 11, nodeIDs: [1, 2]), OSMWay(id: 12, nodeIDs: [3, 2]), OSMWay(id: 13, nodeIDs: [3, 4]), OSMWay(id: 14, nodeIDs: [1, 4]),
                    OSMWay(id: 15, nodeIDs: [2, 9, 3]), OSMWay(id: 16, nodeIDs: [2, 99, 3])]
        func boundary(_ id: Int64, _ name: String, _ wayIDs: [Int64], level: String = "8") -> OSMRelation {
            OSMRelation(id: id, members: wayIDs.map { OSMRelation.Member(type: .way, id: $0, role: "outer") } + [OSMRelation.Member(type: .node, id: 1, role: "admin_centre")],
                        tags: [Self.tag("type", "boundary"), Self.tag("boundary", "administrative"), Self.tag("admin_level", level),
                               Self.tag("name", name), Self.tag("population", "1000")])
        }
        var writer = PBFTestWriter()
        writer.append(PBFTestWriter.Block(denseNodes: nodes, ways: ways, relations: [
            boundary(21, "Whole", [11, 12, 13, 14]), boundary(22, "Cut", [11, 12, 13, 14, 77]), boundary(23, "Node missing", [11, 16, 13, 14]),
            boundary(24, "Bad level", [11, 12, 13, 14], level: "eight"), boundary(25, "Bulge", [11, 15, 13, 14], level: "10"),
        ]))
        let path = try writeExtract(writer.bytes, name: "boundaries.osm.pbf")
        let (places, _) = try OSMPlacesBuilder().places(fromFile: path, totalBytes: 0)
        #expect(places.map(\.id) == [21, 25])
        let whole = try #require(places.first)
        #expect(whole.kind == .boundary)
        #expect(whole.name == "Whole" && whole[tag: "admin_level"] == "8")
        #expect(whole.geometry.count == 1 && whole.geometry[0].count == 5 && whole.geometry[0].first == whole.geometry[0].last)
        // Through the places file, measured against the ellipsoid's closed form (edges a few centimetres off parallels).
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-boundaries").path)
        _ = try folder.add(extractPath: path)
        let geocoder = OSMReverseGeocoder(places: try folder.open())
        let boundaries = geocoder.boundaries().sorted { $0.name > $1.name }
        #expect(boundaries.map(\.name) == ["Whole", "Bulge"])
        #expect(boundaries.map(\.adminLevel) == [8, 10])
        let expected = ellipsoidQuadrangleSquareKilometers(south: 60, north: 60.01, westToEastDegrees: 0.01)
        #expect(abs(boundaries[0].areaSquareKilometers - expected) / expected < 1e-4, "\(boundaries[0].areaSquareKilometers) km² against \(expected)")
        #expect(boundaries[1].areaSquareKilometers > boundaries[0].areaSquareKilometers)
        #expect(boundaries[0].contains(latitude: 60.005, longitude: 25.005))
        #expect(!boundaries[0].contains(latitude: 60.005, longitude: 25.015))
        #expect(boundaries[1].contains(latitude: 60.005, longitude: 25.015))
        // The reverse geocoder does not name a boundary as an area the point is in.
        #expect(geocoder.address(for: Coordinate(validLatitude: 60.005, longitude: 25.005)!) == nil)
    }

    @Test("two overlapping extracts: each element once, from the one added last")
    func overlappingExtracts() throws {
        func extract(_ ids: [Int64], name: String) throws -> String {
            var writer = PBFTestWriter()
            writer.append(PBFTestWriter.Block(denseNodes: ids.map {
                OSMNode(id: $0, latitude: 60, longitude: 25, tags: [Self.tag("name", "\(name) \($0)"), Self.tag("shop", "bakery")])
            }))
            return try writeExtract(writer.bytes, name: name + ".osm.pbf")
        }
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-folder").path)
        _ = try folder.add(extractPath: try extract([1, 2, 3], name: "home"))
        Thread.sleep(forTimeInterval: 0.02)  // modification times order the files
        _ = try folder.add(extractPath: try extract([3, 4], name: "holiday"))
        #expect(folder.names() == ["home", "holiday"])
        let set = try folder.open()
        #expect(set.count == 4)
        var names: [String] = []
        set.forEachPlace { file, index in names.append(set.files[file].place(at: index).name ?? "") }
        #expect(names == ["home 1", "home 2", "holiday 3", "holiday 4"])
        #expect(set.isShadowed(fileIndex: 0, index: 2))
        try folder.remove(name: "holiday.osm.pbf")
        #expect(try folder.open().count == 3)
        #expect(throws: OSMExtractFolderError.noSuchExtract(name: "holiday", folder: folder.path, known: ["home"])) { try folder.remove(name: "holiday") }
    }

    @Test("a places file cut short or changed anywhere opens with an error naming the file, or opens checked, never a crash")
    func damagedPlacesFile() throws {
        let path = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path
        let (places, header) = try OSMPlacesBuilder().places(fromFile: path, totalBytes: 0)
        let bytes = OSMPlacesFile.encode(places, sourceName: "seed", boundingBox: header?.boundingBox)
        let file = try OSMPlacesFile(bytes: bytes)
        #expect((0..<file.count).map(file.place(at:)) == places)
        for cut in 0..<bytes.count {
            #expect(throws: OSMPlacesError.self) { try OSMPlacesFile(bytes: Array(bytes[0..<cut])) }
        }
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 0x41
            if let opened = try? OSMPlacesFile(bytes: changed) {
                for index in 0..<opened.count { _ = opened.place(at: index) }  // every read stays inside the file
            }
        }
    }
}

@Suite("OSM places of the Helsinki extract", .enabled(if: HelsinkiExtract.available, HelsinkiExtract.absentReason))
struct HelsinkiPlacesTests {
    @Test("every address is kept, known places are found, and the file reads back what was built")
    func helsinki() throws {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-helsinki").path)
        let file = try folder.add(extractPath: HelsinkiExtract.path)
        let places = try OSMPlacesBuilder().places(fromFile: HelsinkiExtract.path, totalBytes: 0).places
        #expect(file.count == places.count)
        #expect((0..<file.count).allSatisfy { file.place(at: $0) == places[$0] })
        // Counted in `osmium cat -f opl` of the same file: 1379 nodes, 87 ways and 6 multipolygons
        // have addr:housenumber or addr:housename; 827 named highway ways are not area=yes.
        #expect(places.filter { $0.kind.contains(.address) }.count == 1379 + 87 + 6)
        #expect(places.filter { $0.kind.contains(.street) }.count == 827)
        let ekberg = try #require(file.index(of: .node, id: 151_006_533).map(file.place(at:)))
        #expect(ekberg.name == "Cafe Ekberg")
        #expect(ekberg.category == "amenity=cafe")
        #expect(ekberg[tag: "addr:street"] == "Bulevardi" && ekberg[tag: "addr:housenumber"] == "9")
        #expect(ekberg[tag: "website"] == "http://www.cafeekberg.fi/")
        let street = try #require(file.index(of: .way, id: 22_906_934).map(file.place(at:)))
        #expect(street.kind.contains(.street) && street[tag: "name:sv"] == "Mannerheimvägen")
        // Of its two nodes only 279044844 is in the extract (the cut runs through the street).
        #expect(street.geometry.map(\.count) == [1])
        #expect(abs(street.coordinate.latitude - 60.1714194) < 1e-9 && abs(street.coordinate.longitude - 24.9357342) < 1e-9)
        // Every area's centroid lies within its rings' bounding box.
        for place in places where place.kind.contains(.area) {
            let points = place.geometry.flatMap { $0 }
            #expect((points.map(\.latitude).min()!...points.map(\.latitude).max()!).contains(place.coordinate.latitude), "\(place.elementType) \(place.id)")
        }
    }
}

@Suite("Street-level reverse geocoding on the Helsinki extract", .enabled(if: HelsinkiExtract.available, HelsinkiExtract.absentReason))
struct HelsinkiStreetReverseGeocodingTests {
    static let geocoder: OSMReverseGeocoder? = {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-reverse").path)
        guard (try? folder.add(extractPath: HelsinkiExtract.path)) != nil, let set = try? folder.open() else { return nil }
        return OSMReverseGeocoder(places: set)
    }()

    @Test("every address node's and building's coordinate gives its own street and house number (at least 98 %)")
    func everyAddress() throws {
        let geocoder = try #require(Self.geocoder)
        let (places, _) = try OSMPlacesBuilder().places(fromFile: HelsinkiExtract.path, totalBytes: 0)
        let addresses = places.filter { $0.kind.contains(.address) && $0[tag: "addr:street"] != nil }
        var own = 0
        for place in addresses {
            let found = geocoder.address(for: place.coordinate)
            if found?.thoroughfare == place[tag: "addr:street"], found?.subThoroughfare == place[tag: "addr:housenumber"] { own += 1 }
        }
        #expect(addresses.count > 1400)
        #expect(Double(own) / Double(addresses.count) >= 0.98, "\(own) of \(addresses.count)")
    }

    /// The test's own point-in-rings (even-odd, crossing count), a ring cut open by the extract's
    /// edge closed from its last point to its first.
    static func inside(_ rings: [[Coordinate]], _ point: Coordinate) -> Bool {
        var crossings = 0
        for ring in rings where ring.count > 2 {
            for index in 0..<ring.count {
                let a = ring[(index + ring.count - 1) % ring.count], b = ring[index]
                guard (a.latitude > point.latitude) != (b.latitude > point.latitude) else { continue }
                if point.longitude < a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude) { crossings += 1 }
            }
        }
        return crossings % 2 == 1
    }

    /// The test's own distance from the origin to a segment, by projection onto it.
    static func segmentDistance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let squared = dx * dx + dy * dy
        let t = squared == 0 ? 0 : min(1, max(0, -(a.0 * dx + a.1 * dy) / squared))
        return ((a.0 + t * dx) * (a.0 + t * dx) + (a.1 + t * dy) * (a.1 + t * dy)).squareRoot()
    }

    @Test("the nearest street and the areas around a point are those a scan of every street and area finds (2,000 points)")
    func streetsAndAreasAgainstScan() throws {
        let geocoder = try #require(Self.geocoder)
        let (places, _) = try OSMPlacesBuilder().places(fromFile: HelsinkiExtract.path, totalBytes: 0)
        let streets = places.filter { $0.kind.contains(.street) && $0.name != nil }
        let areas = places.filter { $0.kind.contains(.area) }
        let box = try #require(streets.first).coordinate
        var rng = SplitMix64(seed: 0x57_EE7)
        var streetAnswers = 0, areaAnswers = 0
        for _ in 0..<2_000 {
            let point = try Coordinate(latitude: box.latitude + (rng.nextUnit() - 0.5) * 0.03, longitude: box.longitude + (rng.nextUnit() - 0.5) * 0.06)
            let found = geocoder.address(for: point)
            // Every area whose rings hold the point, by name, as the answer lists them (any order here).
            let names = areas.filter { Self.inside($0.geometry, point) }.compactMap(\.name)
            #expect(Set(found?.areasOfInterest ?? []) == Set(names), "\(point) \(String(describing: found))")
            if !names.isEmpty { areaAnswers += 1 }
            guard let found, found.match == .street else { continue }
            streetAnswers += 1
            // The nearest segment of every named street, in the same local plane.
            let metres = WGS84.semiMajorAxisMeters * .pi / 180, scale = cos(point.latitude * .pi / 180)
            var nearest = Double.infinity
            for street in streets {
                for line in street.geometry {
                    for (a, b) in zip(line, line.count > 1 ? Array(line.dropFirst()) : line) {
                        nearest = min(nearest, Self.segmentDistance(
                            ((a.longitude - point.longitude) * scale * metres, (a.latitude - point.latitude) * metres),
                            ((b.longitude - point.longitude) * scale * metres, (b.latitude - point.latitude) * metres)))
                    }
                }
            }
            #expect(abs(found.distanceMeters - nearest) < 1e-6, "\(point): \(found.distanceMeters) m, the scan \(nearest) m")
        }
        #expect(streetAnswers > 50 && areaAnswers > 50, "\(streetAnswers) street answers, \(areaAnswers) inside areas")
    }

    @Test("at Cafe Ekberg: its address and the café; in the sea: nothing; beside a street without addresses: the street")
    func knownPoints() throws {
        let geocoder = try #require(Self.geocoder)
        let cafe = try #require(geocoder.address(for: try Coordinate(latitude: 60.1647366, longitude: 24.9377736)))
        #expect(cafe.thoroughfare == "Bulevardi" && cafe.subThoroughfare == "9" && cafe.postalCode == "00120")
        #expect(cafe.pointOfInterest == OSMStreetAddress.PointOfInterest(name: "Cafe Ekberg", category: "amenity=cafe"))
        #expect(geocoder.address(for: try Coordinate(latitude: 60.10, longitude: 24.90)) == nil)  // the Gulf of Finland, 7 km south
        // 279044844, the one node of Mannerheimintie's way 22906934 in the extract, is a traffic signal on it.
        let street = geocoder.address(for: try Coordinate(latitude: 60.1714194, longitude: 24.9357342))
        #expect(street != nil)
    }
}
