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
    /// - Complexity: O(w²) in the number of words of the query, for a handful of words.
    func score(place: Int, query: ForwardGeocodingQuery, name: NameSpan, isShortened: Bool) -> Double {
        let qualifiers = qualifierKeys(of: place)
        var explainedWords = name.words.count
        var matchedKinds: Set<QualifierKind> = []
        for (part, words) in query.components.enumerated() {
            let runs = part == name.part ? [words[..<name.words.lowerBound], words[name.words.upperBound...]] : [words[...]]
            for run in runs {
                var start = run.startIndex
                while start < run.endIndex {
                    var matchedEnd: Int?
                    for end in stride(from: min(run.endIndex, start + Self.maximumQualifierWords), to: start, by: -1) {
                        let key = run[start..<end].joined(separator: " ")
                        if let kind = qualifiers[key], !matchedKinds.contains(kind) {
                            matchedKinds.insert(kind)
                            matchedEnd = end
                            break
                        }
                    }
                    if let end = matchedEnd {
                        explainedWords += end - start
                        start = end
                    } else {
                        start += 1
                    }
                }
            }
        }
        var score = Self.coveragePoints * Double(explainedWords) / Double(max(1, query.wordCount))
        if name.words.count == query.components[name.part].count { score += Self.wholePartPoints }
        if isShortened { score -= Self.shortenedNamePenalty }
        score += Self.pointsPerPopulationDecade * log10(Double(gazetteer.population(at: place)) + 1)
        return score
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
