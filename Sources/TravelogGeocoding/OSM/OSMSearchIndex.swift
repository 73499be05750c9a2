import TravelogCore

/// Local search over the OSM places of the extracts added (`MKLocalSearch`): points of interest and
/// streets by any of their names (`name`, every `name:*`, `alt_name`, `old_name`, …), as folded
/// words (`PlaceNameFolding`) matched exactly, as a prefix, or with a typo (`SearchTextMatch`);
/// points of interest by an English category word ("coffee" → `amenity=cafe`,
/// `OSMSearchCategories`); and addresses as a street and a house number in either order, with or
/// without postcode and city (`OSMSearchIndex+Addresses.swift`). Built once when the extracts are
/// loaded; each distinct OSM element once (`OSMPlaceSet`).
///
/// Names are split into words; each distinct word lists the names it is in (postings), and the
/// sorted vocabulary answers prefixes by binary search. Typos are found through the words' trigrams
/// (the q-gram lemma: a word within k edits of a query word of n letters shares at least
/// n − 3k of its n padded trigrams; Ukkonen, "Approximate string-matching with q-grams and maximal
/// matches", TCS 92, 1992), then confirmed by a bounded edit distance.
public struct OSMSearchIndex: Sendable {
    /// The extracts searched.
    public let places: OSMPlaceSet
    /// Street addresses for points of interest that have none of their own.
    let streetAddresses: OSMReverseGeocoder?

    /// A searchable place: where it is in the set.
    struct Record: Sendable {
        var file: Int32
        var index: Int32
        var coordinate: Coordinate
        var kind: OSMPlace.Kind
    }

    let records: [Record]
    /// Every name: its record and folded words.
    let nameRecords: [Int32]
    let nameWords: [[String]]
    /// The distinct words of the names, sorted, and the names each is in.
    let vocabulary: [String]
    let postings: [[Int32]]
    /// Vocabulary indexes by padded trigram.
    let trigrams: [String: [Int32]]
    /// Records of points of interest by category (`amenity=cafe`).
    let byCategory: [String: [Int32]]
    /// Addresses by folded street key, each with its folded house number keys.
    let addressesByStreet: [String: [(numbers: [String], record: Int32)]]
    /// The street keys of `addressesByStreet` as words, for a street typed with a typo.
    let streetKeys: [(key: String, words: [String])]

    /// The number of places indexed (points of interest, streets, addresses).
    public var count: Int { records.count }

    /// Indexes every distinct point of interest, named street and address of the set.
    /// - Parameter streetAddresses: gives points of interest without address tags the address at
    ///   their coordinate in results.
    /// - Complexity: O(n log n) for n names, plus their words' trigrams.
    public init(places set: OSMPlaceSet, streetAddresses: OSMReverseGeocoder? = nil) {
        places = set
        self.streetAddresses = streetAddresses
        var records: [Record] = []
        var nameRecords: [Int32] = [], nameWords: [[String]] = []
        var byCategory: [String: [Int32]] = [:]
        var addresses: [String: [(numbers: [String], record: Int32)]] = [:]
        set.forEachPlace { fileIndex, index in
            let file = set.files[fileIndex]
            let kind = file.kind(at: index)
            let isNamed = kind.contains(.pointOfInterest) || kind.contains(.street)
            guard isNamed || kind.contains(.address) else { return }
            let place = file.place(at: index)
            let record = Int32(records.count)
            records.append(Record(file: Int32(fileIndex), index: Int32(index), coordinate: place.coordinate, kind: kind))
            if isNamed {
                var seen = Set<[String]>()
                for tag in place.tags where Self.isNameKey(tag.key) {
                    // "A;B" are two names (OSM's separator), and the whole value is searched too.
                    let values = tag.value.contains(";") ? [Substring(tag.value)] + tag.value.split(separator: ";") : [Substring(tag.value)]
                    for value in values {
                        let words = PlaceNameFolding.words(value)
                        guard !words.isEmpty, seen.insert(words).inserted else { continue }
                        nameRecords.append(record)
                        nameWords.append(words)
                    }
                }
            }
            if kind.contains(.pointOfInterest), let category = place.category { byCategory[category, default: []].append(record) }
            if kind.contains(.address), let street = place[tag: "addr:street"] ?? place[tag: "addr:place"],
               let number = place[tag: "addr:housenumber"] {
                let key = PlaceNameFolding.key(street)
                let numbers = Self.houseNumberKeys(number)
                if !key.isEmpty, !numbers.isEmpty { addresses[key, default: []].append((numbers, record)) }
            }
        }
        var postingsByWord: [String: [Int32]] = [:]
        for (entry, words) in nameWords.enumerated() {
            for word in Set(words) { postingsByWord[word, default: []].append(Int32(entry)) }
        }
        let vocabulary = postingsByWord.keys.sorted()
        var trigrams: [String: [Int32]] = [:]
        for (position, word) in vocabulary.enumerated() {
            for gram in Set(Self.trigrams(of: word)) { trigrams[gram, default: []].append(Int32(position)) }
        }
        self.records = records
        self.nameRecords = nameRecords
        self.nameWords = nameWords
        self.vocabulary = vocabulary
        self.postings = vocabulary.map { postingsByWord[$0] ?? [] }
        self.trigrams = trigrams
        self.byCategory = byCategory
        self.addressesByStreet = addresses
        self.streetKeys = addresses.keys.sorted().map { ($0, $0.split(separator: " ").map(String.init)) }
    }

    /// Whether a tag's value is a name searched by.
    static func isNameKey(_ key: String) -> Bool {
        key == "name" || key.hasPrefix("name:") || OSMPlaceTags.otherNameKeys.contains(key)
    }

    /// The keys a house number is found by: "10 A" → "10a"; "10-12" and "10;12" → "10 12", "10", "12".
    static func houseNumberKeys(_ number: String) -> [String] {
        var keys: [String] = []
        for part in number.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let words = PlaceNameFolding.words(part)
            guard !words.isEmpty else { continue }
            if words.count > 1, words.allSatisfy({ $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }) {
                keys.append(words.joined(separator: " "))
                keys += words
            } else {
                keys.append(words.joined())
            }
        }
        return keys
    }

    /// The padded trigrams of a word ("^" before, "$" after): as many as the word has letters.
    static func trigrams(of word: String) -> [String] {
        let scalars = ["^"] + Array(word.unicodeScalars) + ["$"]
        guard scalars.count >= 3 else { return [] }
        return (0...(scalars.count - 3)).map { start in
            var gram = String.UnicodeScalarView()
            gram.append(contentsOf: scalars[start..<(start + 3)])
            return String(gram)
        }
    }
}
