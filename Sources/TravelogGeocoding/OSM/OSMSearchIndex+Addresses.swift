import TravelogCore

extension OSMSearchIndex {
    /// The score factor for a postcode in the text that is not the address's.
    static let otherPostcodeFactor = 0.7
    /// The score factor for a word beside the address that is not its city, district or postcode ("Finland").
    static let unexplainedWordFactor = 0.95
    /// Addresses of one street, number and postcode closer than this are one (a building and its entrances).
    static let sameAddressMeters = 300.0
    /// The least score of a street typed with typos or cut short.
    static let leastStreetScore = 0.7

    /// Addresses a text names down to the house number: "Mannerheimintie 10", "10 Mannerheimintie",
    /// "Mannerheimintie 10 B, 00100 Helsinki"; case, accents and punctuation do not matter, the
    /// street may have a typo, postcode and city are optional (a postcode or city that is not the
    /// address's ranks it lower). Best first; empty when the text has no house number or no extract
    /// has the address.
    /// - Complexity: O(w² · (log s + a)) for w words, s streets and a addresses on a street named;
    ///   a street not spelled exactly costs a pass over the streets' names.
    public func addresses(matching text: String, near: Coordinate? = nil, limit: Int = 10) -> [OSMSearchResult] {
        let query = ForwardGeocodingQuery(text)
        var best: [Int32: Double] = [:]
        for (part, words) in query.components.enumerated() {
            for position in words.indices where Self.isHouseNumber(words[position]) {
                var numbers = [(key: words[position], range: position..<(position + 1))]
                if position + 1 < words.count, words[position + 1].unicodeScalars.count == 1, !Self.isHouseNumber(words[position + 1]) {
                    numbers.insert((words[position] + words[position + 1], position..<(position + 2)), at: 0)
                }
                for number in numbers {
                    var streets: [Range<Int>] = (0..<number.range.lowerBound).map { $0..<number.range.lowerBound }
                    if number.range.upperBound < words.count {
                        streets += ((number.range.upperBound + 1)...words.count).reversed().map { number.range.upperBound..<$0 }
                    }
                    for street in streets {
                        let streetWords = Array(words[street])
                        let context = query.components.enumerated().flatMap { index, other in
                            index != part ? other : other.indices.filter { !street.contains($0) && !number.range.contains($0) }.map { other[$0] }
                        }
                        for (key, streetScore) in streetKeys(matching: streetWords) {
                            for address in addressesByStreet[key] ?? [] where address.numbers.contains(number.key) {
                                let score = streetScore * contextFactor(record: address.record, context: context)
                                if score > best[address.record] ?? 0 { best[address.record] = score }
                            }
                        }
                    }
                }
            }
        }
        // Buildings come before the entrances inside them, then OSM order: the same answer every time.
        let ordered = best.sorted { a, b in
            let areaA = records[Int(a.key)].kind.contains(.area), areaB = records[Int(b.key)].kind.contains(.area)
            return areaA != areaB ? areaA : a.key < b.key
        }
        let results = ordered.map { result(record: $0.key, kind: .address, score: $0.value, near: near) }
        // One result per address: a building and its entrances share it.
        var kept: [OSMSearchResult] = []
        for found in Self.stableSorted(results) where !kept.contains(where: { $0.name == found.name && $0.postalCode == found.postalCode
            && $0.coordinate.distanceMeters(to: found.coordinate) < Self.sameAddressMeters }) {
            kept.append(found)
            if kept.count == limit { break }
        }
        return kept
    }

    /// Whether a folded word can be a house number: a digit first, at most four digits (five are a
    /// postcode) or six characters with letters ("10a").
    static func isHouseNumber(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first, ("0"..."9").contains(first) else { return false }
        let digits = word.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        return digits ? word.unicodeScalars.count <= 4 : word.unicodeScalars.count <= 6
    }

    /// Street keys for typed street words: the exact key, else those matched with typos or as a prefix.
    func streetKeys(matching words: [String]) -> [(key: String, score: Double)] {
        let key = words.joined(separator: " ")
        if addressesByStreet[key] != nil { return [(key, 1)] }
        guard words.contains(where: { $0.unicodeScalars.count >= SearchTextMatch.shortestTypoWord }) else { return [] }
        return streetKeys.compactMap { street in
            guard let score = SearchTextMatch.score(query: words, name: street.words), score >= Self.leastStreetScore else { return nil }
            return (street.key, score)
        }
    }

    /// How the words beside the street and number agree with the address's postcode, city and district.
    func contextFactor(record: Int32, context: [String]) -> Double {
        guard !context.isEmpty else { return 1 }
        let entry = records[Int(record)]
        let place = places.files[Int(entry.file)].place(at: Int(entry.index))
        let postcode = place[tag: "addr:postcode"].map(PlaceNameFolding.key)
        var known = Set<String>()
        for key in ["addr:city", "addr:suburb", "addr:district", "addr:municipality"] {
            known.formUnion(place[tag: key].map(PlaceNameFolding.words) ?? [])
        }
        var factor = 1.0
        for word in context where word != postcode && !known.contains(word) {
            let isPostcode = word.unicodeScalars.count >= 4 && word.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
            factor *= isPostcode ? Self.otherPostcodeFactor : Self.unexplainedWordFactor
        }
        return factor
    }
}
