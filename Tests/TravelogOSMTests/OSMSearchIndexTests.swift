import Foundation
import Testing
import TravelogCore
import TravelogGeocoding
import TravelogOSM
import TravelogTestSupport

@Suite("Local search's text match")
struct SearchTextMatchTests {
    @Test("exact, prefix and typo words; every query word must match; the exact name ranks first")
    func words() {
        #expect(SearchTextMatch.quality("regatta", "regatta") == 1)
        #expect(SearchTextMatch.quality("rega", "regatta") == 0.9)
        #expect(SearchTextMatch.quality("regata", "regatta") == 0.75)  // a letter left out
        #expect(SearchTextMatch.quality("regtata", "regatta") == 0.75)  // two letters swapped
        #expect(SearchTextMatch.quality("rgeatta", "regatta") == 0.75)
        #expect(SearchTextMatch.quality("mannerhiemintei", "mannerheimintie") == 0.6)  // two swaps in a long word
        #expect(SearchTextMatch.quality("cat", "cap") == nil)  // short words: no typos
        #expect(SearchTextMatch.quality("regatta", "rega") == nil)
        #expect(SearchTextMatch.score(query: ["regatta"], name: ["regatta"]) == 1)
        let cafe = SearchTextMatch.score(query: ["regatta"], name: ["cafe", "regatta"])
        #expect(cafe != nil && cafe! < 1)
        #expect(SearchTextMatch.score(query: ["regatta", "bar"], name: ["cafe", "regatta"]) == nil)
    }
}

@Suite("Local search over a small extract")
struct OSMSearchIndexTests {
    static func tag(_ key: String, _ value: String) -> OSMTag { OSMTag(key: key, value: value) }

    static func seedIndex() throws -> OSMSearchIndex {
        let path = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/small-dense.osm.pbf").path
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-search-seed").path)
        _ = try folder.add(extractPath: path)
        let set = try folder.open()
        return OSMSearchIndex(places: set, streetAddresses: OSMReverseGeocoder(places: set))
    }

    @Test("\"regata\", \"Regatta\", \"café regatta\" and \"regatta coffee\" find Café Regatta with its address, hours and category")
    func typoAndCategory() throws {
        let index = try Self.seedIndex()
        for text in ["regata", "Regatta", "CAFE REGATTA", "café regata", "regatta coffee", "rega"] {
            let first = try #require(index.search(text).first, "\(text)")
            #expect(first.name == "Café Regatta", "\(text)")
            #expect(first.kind == .pointOfInterest)
            #expect(first.category == "amenity=cafe")
            #expect(first.openingHours == "Mo-Su 09:00-21:00")
            #expect(first.address?.hasPrefix("Merikannontie") == true)
        }
        #expect(index.search("coffee").map(\.name) == ["Café Regatta"])
        #expect(index.search("pharmacy").isEmpty)
        #expect(index.search("zzyzx qwerty").isEmpty)
        #expect(index.search("regatta", categories: ["shop=bakery"]).isEmpty)
        #expect(index.search("regatta", categories: ["amenity=cafe"]).count == 1)
    }

    @Test("a street by any of its names: Mannerheimvägen is Mannerheimintie's Swedish name")
    func streetNames() throws {
        let index = try Self.seedIndex()
        let street = try #require(index.search("mannerheimvägen").first)
        #expect(street.kind == .street)
        #expect(street.name == "Mannerheimintie")
    }

    @Test("names in other scripts: name:ru and name:zh find the place, and so does the Latin name")
    func nonLatinNames() throws {
        var writer = PBFTestWriter()
        writer.append(PBFTestWriter.Block(denseNodes: [
            OSMNode(id: 1, latitude: 60.17, longitude: 24.94, tags: [Self.tag("name", "Pääposti"), Self.tag("name:ru", "Главпочтамт"),
                                                                    Self.tag("name:zh", "中央郵局"), Self.tag("amenity", "post_office")]),
            OSMNode(id: 2, latitude: 60.18, longitude: 24.95, tags: [Self.tag("name", "Posti"), Self.tag("amenity", "post_office")]),
        ]))
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-search-scripts").path)
        _ = try folder.add(extractPath: try writeExtract(writer.bytes, name: "scripts.osm.pbf"))
        let index = OSMSearchIndex(places: try folder.open())
        for text in ["Главпочтамт", "главпочтамт", "главпочт", "中央郵局", "paaposti"] {
            #expect(index.search(text).first?.osmID == 1, "\(text)")
        }
        #expect(index.search("post office").count == 2)
    }

    @Test("two overlapping extracts: a place in both is found once")
    func overlappingExtracts() throws {
        func extract(_ ids: [Int64], name: String) throws -> String {
            var writer = PBFTestWriter()
            writer.append(PBFTestWriter.Block(denseNodes: ids.map {
                OSMNode(id: $0, latitude: 60 + Double($0) * 0.001, longitude: 25,
                        tags: [Self.tag("name", "Leipomo \($0)"), Self.tag("shop", "bakery")])
            }))
            return try writeExtract(writer.bytes, name: name + ".osm.pbf")
        }
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-search-overlap").path)
        _ = try folder.add(extractPath: try extract([1, 2, 3], name: "home"))
        Thread.sleep(forTimeInterval: 0.02)
        _ = try folder.add(extractPath: try extract([3, 4], name: "holiday"))
        let index = OSMSearchIndex(places: try folder.open())
        let found = index.search("leipomo", limit: 10)
        #expect(found.map(\.osmID).sorted() == [1, 2, 3, 4])
        #expect(index.search("bakery", limit: 10).count == 4)
    }
}

@Suite("Local search on the Helsinki extract", .enabled(if: HelsinkiExtract.available, HelsinkiExtract.absentReason))
struct HelsinkiSearchTests {
    static let set: OSMPlaceSet? = {
        let folder = OSMExtractFolder(path: TestDirectory.makeFolder("osm-search").path)
        guard (try? folder.add(extractPath: HelsinkiExtract.path)) != nil else { return nil }
        return try? folder.open()
    }()
    static let index: OSMSearchIndex? = set.map { OSMSearchIndex(places: $0, streetAddresses: OSMReverseGeocoder(places: $0)) }
    static let ekberg = Coordinate(validLatitude: 60.1647366, longitude: 24.9377736)!

    @Test("every named point of interest is found by its exact name from 300 m away in the first three (at least 98 %)")
    func everyNamedPOI() throws {
        let set = try #require(Self.set), index = try #require(Self.index)
        var total = 0, found = 0
        var missed: [String] = []
        set.forEachPlace { file, position in
            let place = set.files[file].place(at: position)
            guard place.kind.contains(.pointOfInterest), let name = place.name, !PlaceNameFolding.words(name).isEmpty else { return }
            total += 1
            // 300 m north of it.
            let from = Coordinate(validLatitude: place.coordinate.latitude + 300 / 111_320, longitude: place.coordinate.longitude)!
            let results = index.search(name, near: from, limit: 3)
            if results.contains(where: { $0.osmID == place.id && $0.elementType == place.elementType }) { found += 1 } else { missed.append(name) }
        }
        print("named points of interest found by name from 300 m in the first three: \(found) of \(total)"
              + " (\(String(format: "%.2f", 100 * Double(found) / Double(max(total, 1)))) %); missed: \(missed.prefix(10))")
        #expect(total > 1000)
        #expect(Double(found) / Double(total) >= 0.98, "\(found) of \(total); missed: \(missed.prefix(20))")
    }

    @Test("typos and prefixes: \"ekbreg\", \"cafe ekbrg\", \"ekber\" find Cafe Ekberg")
    func typos() throws {
        let index = try #require(Self.index)
        for text in ["ekbreg", "cafe ekbrg", "ekber", "Cafe Ekberg", "CAFÉ EKBERG"] {
            let results = index.search(text, near: Self.ekberg, limit: 3)
            #expect(results.contains { $0.name == "Cafe Ekberg" }, "\(text): \(results.map(\.name))")
        }
    }

    @Test("category words: coffee near Cafe Ekberg gives cafés, nearest first; atm, pharmacies, supermarket give their tags")
    func categories() throws {
        let index = try #require(Self.index)
        let coffee = index.search("coffee", near: Self.ekberg, limit: 10)
        #expect(coffee.count == 10)
        #expect(coffee.allSatisfy { $0.category == "amenity=cafe" })
        #expect(coffee.first?.name == "Cafe Ekberg")
        let distances = coffee.compactMap(\.distanceMeters)
        #expect(distances == distances.sorted())
        for (word, tags) in [("atm", ["amenity=atm"]), ("pharmacies", ["amenity=pharmacy", "healthcare=pharmacy"]),
                             ("supermarket", ["shop=supermarket", "shop=convenience"]), ("hotel", ["tourism=hotel"])] {
            let results = index.search(word, near: Self.ekberg, limit: 5)
            #expect(!results.isEmpty, "\(word)")
            #expect(results.allSatisfy { tags.contains($0.category ?? "") }, "\(word): \(results.map(\.category))")
        }
    }

    @Test("an address in both orders, with or without postcode and city, any case and accents: Bulevardi 9")
    func addresses() throws {
        let index = try #require(Self.index)
        for text in ["Bulevardi 9", "9 Bulevardi", "bulevardi 9, 00120 helsinki", "BULEVARDI 9 HELSINKI", "Bulevardí 9", "Bulvardi 9"] {
            let first = try #require(index.addresses(matching: text).first, "\(text)")
            #expect(first.thoroughfare == "Bulevardi" && first.subThoroughfare == "9", "\(text)")
            #expect(first.postalCode == "00120")
            #expect(first.coordinate.distanceMeters(to: Self.ekberg) < 60, "\(text)")
            #expect(index.search(text, limit: 3).first?.kind == .address, "\(text)")
        }
        let wrongPostcode = try #require(index.addresses(matching: "Bulevardi 9, 00999").first)
        let rightPostcode = try #require(index.addresses(matching: "Bulevardi 9, 00120").first)
        #expect(wrongPostcode.score < rightPostcode.score)
        #expect(index.addresses(matching: "Bulevardi 9999").isEmpty)
        #expect(index.addresses(matching: "Cafe Ekberg").isEmpty)
    }

    @Test("a search with no result is empty")
    func nothing() throws {
        let index = try #require(Self.index)
        #expect(index.search("qqxxzzyy wwvvkk", near: Self.ekberg).isEmpty)
    }

    @Test("names in Russian and Chinese from the extract: Главпочтамт")
    func nonLatin() throws {
        let index = try #require(Self.index)
        let found = try #require(index.search("Главпочтамт").first)
        #expect(found.kind == .pointOfInterest)
        #expect(found.name != "Главпочтамт")  // shown by its own name
    }

    @Test("forward geocoding reads addresses down to the house number, before the gazetteer's towns",
          .enabled(if: BuildData.exists(Gazetteer.defaultFileName), "needs make gazetteer"))
    func forwardGeocoding() throws {
        var geocoder = ForwardGeocoder(gazetteer: try Gazetteer(contentsOfFile: BuildData.path(Gazetteer.defaultFileName)))
        geocoder.streetLevel = try #require(Self.index)
        for text in ["Bulevardi 9, Helsinki", "9 bulevardi", "Bulevardi 9, 00120"] {
            let first = try #require(geocoder.placemarks(for: text, limit: 3).first)
            #expect(first.thoroughfare == "Bulevardi" && first.subThoroughfare == "9" && first.postalCode == "00120", "\(text)")
            #expect(first.name == "Bulevardi 9")
            #expect(first.isoCountryCode == "FI")
            #expect(first.locality == "Helsinki")
        }
        #expect(geocoder.placemarks(for: "Helsinki", limit: 1).first?.thoroughfare == nil)
    }
}
