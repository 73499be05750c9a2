import Foundation
import TravelogCore

/// Turns free text ("Cupertino", "Paris, France", "Springfield, IL", "1 Infinite Loop, Cupertino,
/// CA USA") into gazetteer places, best first. Matching is on whole folded words (see
/// `PlaceNameFolding`), so case, accents and punctuation do not matter; the result is a city, not
/// a street address.
///
/// Every run of up to `maximumNameWords` consecutive words inside one comma-separated part is
/// looked up as a place name. Each place found is scored by how much of the text it explains:
/// its name, then qualifiers among the remaining words (its country's name, ISO alpha-2 or
/// alpha-3 code; its first-level division's name, or a US state's postal abbreviation; its
/// second-level division, with or without "County"), then its population as a tie-breaker.
/// See `ForwardGeocoder+Scoring.swift` for the figures.
public struct ForwardGeocoder: Sendable {
    /// The places searched.
    public let gazetteer: Gazetteer
    /// Every name key of every place, sorted by hash (then place).
    private let entries: [Entry]
    /// The longest name, in words, that a lookup tries.
    let maximumNameWords: Int
    /// Street addresses down to the house number from the OSM extracts added (`travelog osm add`),
    /// answered before the gazetteer's towns; `nil`: the gazetteer alone.
    public var streetLevel: OSMSearchIndex? = nil

    /// A place found for a text, and how well it explains the text.
    public struct Match: Hashable, Sendable {
        /// The place's index in the gazetteer.
        public let placeIndex: Int
        /// The place.
        public let placemark: Placemark
        /// Higher is better; only comparable between matches for the same text.
        public let score: Double
    }

    /// One name of one place in the index.
    struct Entry: Sendable {
        /// FNV-1a hash of the folded name key.
        var hash: UInt64
        /// The place's index.
        var place: UInt32
        /// Whether the key is the name without a trailing "City" ("New York" for "New York City").
        var isShortened: Bool
    }

    /// Indexes the names and ASCII names of the gazetteer's places.
    /// - Complexity: O(n log n) for n places.
    public init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        var entries: [Entry] = []
        entries.reserveCapacity(gazetteer.count * 5 / 4)
        var longest = 1
        for index in 0..<gazetteer.count {
            let place = UInt32(index)
            let name = PlaceNameFolding.words(gazetteer.name(at: index))
            let ascii = PlaceNameFolding.words(gazetteer.asciiName(at: index))
            for words in ascii == name ? [name] : [name, ascii] where !words.isEmpty {
                longest = max(longest, words.count)
                entries.append(Entry(hash: Self.hash(words[...]), place: place, isShortened: false))
                if words.count > 1, words.last == "city" {
                    entries.append(Entry(hash: Self.hash(words.dropLast()), place: place, isShortened: true))
                }
            }
        }
        entries.sort { ($0.hash, $0.place) < ($1.hash, $1.place) }
        self.entries = entries
        self.maximumNameWords = min(longest, 8)
    }

    /// The places that `text` may name, best first.
    /// - Parameter limit: the most matches returned.
    /// - Complexity: O(w · m · (log n + p)) for w words, m = `maximumNameWords`, n names and p
    ///   the places that share a name (each is scored in a bounded number of steps).
    public func matches(for text: String, limit: Int = 10) -> [Match] {
        var work = SearchWork()
        return matches(for: text, limit: limit, work: &work)
    }

    /// What a search did, counted (for tests of its complexity; never timed).
    struct SearchWork {
        /// Steps of the scoring's search for qualifiers, over every place found.
        var qualifierSteps = 0
        /// Places scored.
        var placesScored = 0
    }

    func matches(for text: String, limit: Int, work: inout SearchWork) -> [Match] {
        let query = ForwardGeocodingQuery(text)
        let phrases = QueryPhrases(query, maximumWords: Self.maximumQualifierWords)
        var bestScores: [Int: Double] = [:]
        for (part, words) in query.components.enumerated() {
            for start in words.indices {
                for end in (start + 1)...min(words.count, start + maximumNameWords) {
                    let span = words[start..<end]
                    for (place, isShortened) in places(named: span) {
                        let score = score(place: place, query: query, phrases: phrases, name: NameSpan(part: part, words: start..<end),
                                          isShortened: isShortened, work: &work)
                        if score > bestScores[place, default: -.infinity] { bestScores[place] = score }
                    }
                }
            }
        }
        let ranked = bestScores.sorted { a, b in
            if a.value != b.value { return a.value > b.value }
            let populationA = gazetteer.population(at: a.key), populationB = gazetteer.population(at: b.key)
            return populationA != populationB ? populationA > populationB : a.key < b.key
        }
        return ranked.prefix(max(0, limit)).map { Match(placeIndex: $0.key, placemark: gazetteer.placemark(at: $0.key), score: $0.value) }
    }

    /// The addresses an OSM extract has for `text` (``streetLevel``), then the places of
    /// `matches(for:limit:)`.
    public func placemarks(for text: String, limit: Int = 10) -> [Placemark] {
        let addresses = streetAddressPlacemarks(for: text, limit: limit)
        return addresses + matches(for: text, limit: limit - addresses.count).map(\.placemark)
    }

    /// The places with a name (or shortened name) of exactly these folded words.
    func places(named words: ArraySlice<String>) -> [(place: Int, isShortened: Bool)] {
        let hash = Self.hash(words)
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].hash < hash { low = mid + 1 } else { high = mid }
        }
        var found: [(place: Int, isShortened: Bool)] = []
        var i = low
        while i < entries.count, entries[i].hash == hash {
            let place = Int(entries[i].place)
            // Confirm against the names themselves: a hash collision must not invent a match.
            let key = words.joined(separator: " ")
            let names = [PlaceNameFolding.words(gazetteer.name(at: place)), PlaceNameFolding.words(gazetteer.asciiName(at: place))]
            let confirmed = names.contains { name in
                entries[i].isShortened ? (name.last == "city" && name.dropLast().joined(separator: " ") == key)
                                       : name.joined(separator: " ") == key
            }
            if confirmed, !found.contains(where: { $0.place == place && $0.isShortened == entries[i].isShortened }) {
                found.append((place, entries[i].isShortened))
            }
            i += 1
        }
        return found
    }

    /// FNV-1a (64-bit) over the words' UTF-8 joined by spaces.
    /// Source: Fowler, Noll and Vo, IETF draft-eastlake-fnv, "The FNV Non-Cryptographic Hash Algorithm".
    static func hash(_ words: ArraySlice<String>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (i, word) in words.enumerated() {
            if i > 0 { hash = (hash ^ UInt64(UInt8(ascii: " "))) &* 0x0000_0100_0000_01B3 }
            for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return hash
    }
}
