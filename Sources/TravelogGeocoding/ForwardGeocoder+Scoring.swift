import Foundation

extension ForwardGeocoder {
    /// Where a place's name was found in the query.
    struct NameSpan {
        /// The comma-separated part.
        var part: Int
        /// The words of that part.
        var words: Range<Int>
    }

    /// What a qualifier word says about a place.
    enum QualifierKind: CaseIterable {
        case country, administrativeArea, subAdministrativeArea
    }

    /// Points for explaining the whole text; a place that explains half of it gets half.
    static let coveragePoints = 10.0
    /// Points when the name fills its comma-separated part ("Cupertino" in "…, Cupertino, CA").
    static let wholePartPoints = 1.0
    /// Points taken off when only the name without "City" matched ("New York" for New York City).
    static let shortenedNamePenalty = 0.5
    /// Points per power of ten of inhabitants: breaks ties between equally good matches
    /// (Paris, France before Paris, Texas) without outweighing a qualifier.
    static let pointsPerPopulationDecade = 0.3
    /// The longest qualifier tried, in words ("Federated States of Micronesia").
    static let maximumQualifierWords = 6

    /// The score of `place` for `query` when its name is at `name`.
    ///
    /// Qualifiers are found as a left-to-right scan of the words outside the name would find them:
    /// at each word, the longest qualifier phrase of a kind not matched yet, then on after it. The
    /// scan visits only the words where one of the place's qualifier phrases starts (`phrases`), and
    /// drops a kind's phrases once the kind is matched.
    /// - Complexity: O(k) for the k qualifier phrases of the place (at most seven), whatever the
    ///   length of the text: a phrase's occurrences are passed over only while they overlap the name
    ///   or a qualifier already matched, a bounded number of words.
    func score(place: Int, query: ForwardGeocodingQuery, phrases: QueryPhrases, name: NameSpan, isShortened: Bool,
               work: inout SearchWork) -> Double {
        work.placesScored += 1
        var cursors: [QualifierCursor] = qualifierKeys(of: place).compactMap { key, kind in
            phrases.starts[key].map { QualifierCursor(kind: kind, wordCount: key.split(separator: " ").count, starts: $0) }
        }
        var explainedWords = name.words.count
        var matchedKinds: Set<QualifierKind> = []
        var matchedEnd: QueryPhrases.Position?
        while true {
            cursors.removeAll { matchedKinds.contains($0.kind) || $0.next == $0.starts.count }
            guard let position = cursors.map({ $0.starts[$0.next] }).min() else { break }
            work.qualifierSteps += 1
            let covered = matchedEnd.map { $0.part == position.part && position.word < $0.word } ?? false
            var best: Int?
            for index in cursors.indices where cursors[index].starts[cursors[index].next] == position {
                let words = position.word..<(position.word + cursors[index].wordCount)
                let overlapsName = position.part == name.part && words.overlaps(name.words)
                if !covered, !overlapsName, cursors[index].wordCount > best.map({ cursors[$0].wordCount }) ?? 0 { best = index }
                cursors[index].next += 1
            }
            if let best {
                matchedKinds.insert(cursors[best].kind)
                explainedWords += cursors[best].wordCount
                matchedEnd = QueryPhrases.Position(part: position.part, word: position.word + cursors[best].wordCount)
            }
        }
        var score = Self.coveragePoints * Double(explainedWords) / Double(max(1, query.wordCount))
        if name.words.count == query.components[name.part].count { score += Self.wholePartPoints }
        if isShortened { score -= Self.shortenedNamePenalty }
        score += Self.pointsPerPopulationDecade * log10(Double(gazetteer.population(at: place)) + 1)
        return score
    }

    /// A qualifier phrase of a place and where it occurs in the text, scanned in order.
    struct QualifierCursor {
        var kind: QualifierKind
        var wordCount: Int
        /// Where the phrase starts in the text, in order.
        var starts: [QueryPhrases.Position]
        /// The first of `starts` not yet passed.
        var next = 0
    }

    /// Where each run of up to ``maximumQualifierWords`` words starts in a text, keyed by the words
    /// joined with spaces: built once per text, so a place's qualifiers are looked up rather than
    /// searched for.
    struct QueryPhrases {
        /// A word of the text: its comma-separated part and its index there.
        struct Position: Comparable {
            var part: Int
            var word: Int

            static func < (a: Position, b: Position) -> Bool { (a.part, a.word) < (b.part, b.word) }
        }

        /// Every phrase's starts, in order.
        let starts: [String: [Position]]

        /// - Complexity: O(w · m) phrases for w words and m = `maximumWords`.
        init(_ query: ForwardGeocodingQuery, maximumWords: Int) {
            var starts: [String: [Position]] = [:]
            for (part, words) in query.components.enumerated() {
                for start in words.indices {
                    for end in (start + 1)...min(words.count, start + maximumWords) {
                        starts[words[start..<end].joined(separator: " "), default: []].append(Position(part: part, word: start))
                    }
                }
            }
            self.starts = starts
        }
    }

    /// The folded phrases that qualify `place`, each with what it names.
    func qualifierKeys(of place: Int) -> [String: QualifierKind] {
        var keys: [String: QualifierKind] = [:]
        let country = gazetteer.country(at: place)
        // Least specific first, so that a phrase naming both a division and its country (Tokyo,
        // Singapore) counts as the more specific one.
        keys[PlaceNameFolding.key(country.name)] = .country
        keys[country.code.lowercased()] = .country
        if let alpha3 = country.alpha3Code { keys[alpha3.lowercased()] = .country }
        let admin2 = PlaceNameFolding.words(gazetteer.subAdministrativeArea(at: place))
        if !admin2.isEmpty {
            keys[admin2.joined(separator: " ")] = .subAdministrativeArea
            if admin2.count > 1, Self.divisionSuffixes.contains(admin2[admin2.count - 1]) {
                keys[admin2.dropLast().joined(separator: " ")] = .subAdministrativeArea
            }
        }
        let admin1 = PlaceNameFolding.key(gazetteer.administrativeArea(at: place))
        if !admin1.isEmpty {
            keys[admin1] = .administrativeArea
            if country.code == "US", let abbreviation = USStateAbbreviations.foldedAbbreviationByStateKey[admin1] {
                keys[abbreviation] = .administrativeArea
            }
        }
        return keys
    }

    /// Words that end the names of second-level divisions and that people leave out.
    static let divisionSuffixes: Set<String> = ["county", "parish", "borough", "district", "department"]
}
