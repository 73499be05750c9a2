import TravelogCore

extension OSMSearchIndex {
    /// The most vocabulary words a short prefix expands to (a one- or two-letter query).
    static let maximumPrefixWords = 2_000
    /// Streets of one name closer than this are one street (OSM splits a street into many ways).
    static let sameStreetMeters = 1_500.0
    /// The score of a point of interest found by its category word alone: a name that holds the
    /// word scores no more, so the nearest café comes first for "coffee".
    public static let categoryScore = 0.9

    /// Points of interest, streets and addresses for a text, best first (``SearchTextMatch``'s
    /// order: text match, then distance from `near`).
    /// - Parameters:
    ///   - text: a name, a category word ("coffee"), both ("regatta cafe"), or an address.
    ///   - near: distances are measured from here; nearer places rank first among equal matches.
    ///   - categories: only points of interest of these tags (`amenity=cafe`), when given.
    ///   - limit: the most results.
    /// - Complexity: O(w · (log v + c)) for w query words, v vocabulary words and c candidate names,
    ///   plus the places of a category when the text is a category word.
    public func search(_ text: String, near: Coordinate? = nil, categories: [String]? = nil, limit: Int = 10) -> [OSMSearchResult] {
        let words = PlaceNameFolding.words(text)
        guard !words.isEmpty || categories != nil, limit > 0 else { return [] }
        var best: [Int32: (score: Double, kind: OSMSearchResult.Kind)] = [:]
        func offer(_ record: Int32, _ score: Double, _ kind: OSMSearchResult.Kind) {
            if let categories {
                guard kind == .pointOfInterest, categories.contains(where: { byCategory[$0]?.contains(record) ?? false }) else { return }
            }
            if score > best[record]?.score ?? 0 { best[record] = (score, kind) }
        }
        // By name.
        for (record, score) in nameMatches(words) {
            offer(record, score, records[Int(record)].kind.contains(.pointOfInterest) ? .pointOfInterest : .street)
        }
        // By category: the whole text, or one word of it with a name in the rest ("regatta cafe").
        let key = words.joined(separator: " ")
        if let tags = OSMSearchCategories.tags(for: key), categories == nil || !(categories ?? []).isEmpty {
            for tag in tags { for record in byCategory[tag] ?? [] { offer(record, Self.categoryScore, .pointOfInterest) } }
        } else if words.count > 1 {
            for (position, word) in words.enumerated() {
                guard let tags = OSMSearchCategories.tags(for: word) else { continue }
                var rest = words
                rest.remove(at: position)
                for (record, score) in nameMatches(rest) where tags.contains(where: { byCategory[$0]?.contains(record) ?? false }) {
                    offer(record, score * 0.95, .pointOfInterest)
                }
            }
        }
        if words.isEmpty, let categories {
            for tag in categories { for record in byCategory[tag] ?? [] { offer(record, Self.categoryScore, .pointOfInterest) } }
        }
        // Ordered before the places are read, so that only the results kept are.
        var candidates = best.map { record, match in
            Candidate(score: match.score, distanceMeters: near.map { $0.distanceMeters(to: records[Int(record)].coordinate) },
                      order: Int(record), record: record, kind: match.kind, address: nil)
        }
        if categories == nil {
            for (offset, found) in addresses(matching: text, near: near, limit: limit).enumerated() {
                candidates.append(Candidate(score: found.score, distanceMeters: found.distanceMeters, order: -1 - offset, record: -1,
                                            kind: .address, address: found))
            }
        }
        candidates.sort { a, b in
            if SearchTextMatch.ranksBefore(score: a.score, distanceMeters: a.distanceMeters, name: "", score: b.score,
                                           distanceMeters: b.distanceMeters, name: "") { return true }
            if SearchTextMatch.ranksBefore(score: b.score, distanceMeters: b.distanceMeters, name: "", score: a.score,
                                           distanceMeters: a.distanceMeters, name: "") { return false }
            return a.order < b.order
        }
        // One result per street (the ways of a street share its name) and per address.
        var kept: [OSMSearchResult] = []
        for candidate in candidates {
            let found = candidate.address ?? result(record: candidate.record, kind: candidate.kind, score: candidate.score, near: near)
            if found.kind == .street, kept.contains(where: { $0.kind == .street && $0.name == found.name
                && $0.coordinate.distanceMeters(to: found.coordinate) < Self.sameStreetMeters }) { continue }
            if kept.contains(where: { $0.elementType == found.elementType && $0.osmID == found.osmID }) { continue }
            kept.append(found)
            if kept.count == limit { break }
        }
        return kept.map { detailed($0) }
    }

    /// A place found, before it is read.
    struct Candidate {
        var score: Double
        var distanceMeters: Double?
        /// Ties last: the record's order (addresses, already read, first).
        var order: Int
        var record: Int32
        var kind: OSMSearchResult.Kind
        var address: OSMSearchResult?
    }

    /// Results in ``SearchTextMatch``'s order; equal ones keep their order.
    static func stableSorted(_ results: [OSMSearchResult]) -> [OSMSearchResult] {
        results.enumerated().sorted { a, b in
            if SearchTextMatch.ranksBefore(score: a.element.score, distanceMeters: a.element.distanceMeters, name: a.element.name,
                                           score: b.element.score, distanceMeters: b.element.distanceMeters, name: b.element.name) { return true }
            if SearchTextMatch.ranksBefore(score: b.element.score, distanceMeters: b.element.distanceMeters, name: b.element.name,
                                           score: a.element.score, distanceMeters: a.element.distanceMeters, name: a.element.name) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Records whose names match all of `words`, with the best score of their names.
    func nameMatches(_ words: [String]) -> [Int32: Double] {
        guard !words.isEmpty else { return [:] }
        // The names holding a match of the query word with the fewest: every name found must match it.
        var driver: [Int32]?
        for word in words {
            let matched = vocabularyMatches(word)
            var names = Set<Int32>()
            for position in matched { names.formUnion(postings[position]) }
            if driver == nil || names.count < driver!.count { driver = Array(names) }
            if names.isEmpty { return [:] }
        }
        var scores: [Int32: Double] = [:]
        for entry in driver ?? [] {
            guard let score = SearchTextMatch.score(query: words, name: nameWords[Int(entry)]) else { continue }
            let record = nameRecords[Int(entry)]
            if score > scores[record] ?? 0 { scores[record] = score }
        }
        return scores
    }

    /// The vocabulary words a query word matches: itself, the words it begins, and those within
    /// its allowed edits.
    func vocabularyMatches(_ word: String) -> [Int] {
        var found: [Int] = []
        // Exact and prefix: the sorted range of words beginning with it.
        var low = 0, high = vocabulary.count
        while low < high {
            let middle = (low + high) / 2
            if vocabulary[middle] < word { low = middle + 1 } else { high = middle }
        }
        var position = low
        while position < vocabulary.count, vocabulary[position].hasPrefix(word), found.count < Self.maximumPrefixWords {
            found.append(position)
            position += 1
        }
        let allowed = SearchTextMatch.allowedEdits(length: word.unicodeScalars.count)
        guard allowed > 0 else { return found }
        let grams = Self.trigrams(of: word)
        var shared: [Int32: Int] = [:]
        for gram in Set(grams) { for candidate in trigrams[gram] ?? [] { shared[candidate, default: 0] += 1 } }
        // The q-gram lemma, one less for a typo in a word's beginning (its end gram differs).
        let needed = max(1, grams.count - 3 * allowed - 1)
        let exactOrPrefix = Set(found)
        for (candidate, count) in shared where count >= needed && !exactOrPrefix.contains(Int(candidate)) {
            if SearchTextMatch.quality(word, vocabulary[Int(candidate)]) != nil { found.append(Int(candidate)) }
        }
        return found
    }

    /// The result for a record, read from its file.
    func result(record: Int32, kind: OSMSearchResult.Kind, score: Double, near: Coordinate?, name: String? = nil) -> OSMSearchResult {
        let entry = records[Int(record)]
        let place = places.files[Int(entry.file)].place(at: Int(entry.index))
        let street = place[tag: "addr:street"] ?? place[tag: "addr:place"], number = place[tag: "addr:housenumber"]
        let postcode = place[tag: "addr:postcode"], city = place[tag: "addr:city"]
        let shownName: String
        switch kind {
        case .address: shownName = name ?? [street, number].compactMap { $0 }.joined(separator: " ")
        default: shownName = name ?? place.name ?? place.tags.first(where: { Self.isNameKey($0.key) })?.value ?? ""
        }
        return OSMSearchResult(
            kind: kind, name: shownName,
            address: kind == .street ? nil : OSMSearchResult.formatAddress(street: street, number: number, postalCode: postcode, city: city),
            category: kind == .pointOfInterest ? place.category : nil, coordinate: entry.coordinate,
            distanceMeters: near.map { $0.distanceMeters(to: entry.coordinate) },
            // An address's hours and contacts would be those of what is there: the point of interest has them.
            openingHours: kind == .pointOfInterest ? place[tag: "opening_hours"] : nil,
            website: kind == .pointOfInterest ? place[tag: "website"] ?? place[tag: "contact:website"] : nil,
            phone: kind == .pointOfInterest ? place[tag: "phone"] ?? place[tag: "contact:phone"] : nil, thoroughfare: kind == .street ? place.name : street,
            subThoroughfare: number, postalCode: postcode, locality: city, elementType: place.elementType, osmID: place.id, score: score)
    }

    /// A point of interest without an address of its own gets the one at its coordinate.
    func detailed(_ result: OSMSearchResult) -> OSMSearchResult {
        guard result.kind == .pointOfInterest, result.address == nil, let streetAddresses,
              let found = streetAddresses.address(for: result.coordinate), found.match != .street,
              let address = OSMSearchResult.formatAddress(street: found.thoroughfare, number: found.subThoroughfare,
                                                          postalCode: found.postalCode, city: found.locality)
        else { return result }
        return OSMSearchResult(kind: result.kind, name: result.name, address: address, category: result.category, coordinate: result.coordinate,
                               distanceMeters: result.distanceMeters, openingHours: result.openingHours, website: result.website,
                               phone: result.phone, thoroughfare: found.thoroughfare, subThoroughfare: found.subThoroughfare,
                               postalCode: found.postalCode, locality: found.locality, elementType: result.elementType,
                               osmID: result.osmID, score: result.score)
    }
}
