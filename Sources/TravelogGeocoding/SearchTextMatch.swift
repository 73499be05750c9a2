/// How well a searched text matches a name, both as folded words (`PlaceNameFolding`): the one
/// scoring of local search, for OSM places, gazetteer towns and a person's own places alike.
///
/// A query word matches a name word exactly (1), as its beginning ("rega" for "regatta": 0.9), or
/// within a few edits (Damerau–Levenshtein: one edit for words of 4 to 7 letters, two from 8 on;
/// 0.75 for one edit, 0.6 for two), so "regata" finds "Regatta". Every query word must match a
/// name word; the mean of the word qualities is then scaled by how much of the name was matched,
/// so "Regatta" ranks "Regatta" (1.0) before "Café Regatta" (0.9).
public enum SearchTextMatch {
    /// Quality of a query word matching a name word exactly.
    public static let exactQuality = 1.0
    /// Quality of a query word that begins a name word.
    public static let prefixQuality = 0.9
    /// Quality of a query word one edit away, and two.
    public static let oneEditQuality = 0.75
    public static let twoEditsQuality = 0.6
    /// Query words shorter than this match only exactly or as a prefix.
    public static let shortestTypoWord = 4
    /// Share of the score that depends on how much of the name the query covered.
    static let coverageWeight = 0.2

    /// The edits allowed for a query word of `length` letters (scalars).
    public static func allowedEdits(length: Int) -> Int {
        length < shortestTypoWord ? 0 : (length < 8 ? 1 : 2)
    }

    /// The quality of `queryWord` against `word`, `nil` when they do not match.
    /// - Complexity: O(m · n) for the words' lengths (short: names' words).
    public static func quality(_ queryWord: String, _ word: String) -> Double? {
        if queryWord == word { return exactQuality }
        if word.hasPrefix(queryWord) { return prefixQuality }
        let query = Array(queryWord.unicodeScalars), target = Array(word.unicodeScalars)
        let allowed = allowedEdits(length: query.count)
        guard allowed > 0 else { return nil }
        // A typo in a word typed so far: compare with the word's beginning of the same length too.
        let distance = min(editDistance(query, target, bound: allowed),
                           target.count > query.count ? editDistance(query, Array(target[0..<query.count]), bound: allowed) + 1 : .max)
        switch distance {
        case 1: return oneEditQuality
        case 2 where allowed >= 2: return twoEditsQuality
        default: return nil
        }
    }

    /// The score of a query against a name, `nil` when a query word matches no name word.
    /// - Returns: a score in (0, 1]; 1 for the exact name.
    public static func score(query: [String], name: [String]) -> Double? {
        guard !query.isEmpty, !name.isEmpty else { return nil }
        var total = 0.0
        var used = Set<Int>()
        for queryWord in query {
            var best: (quality: Double, index: Int)?
            for (index, word) in name.enumerated() {
                guard let quality = quality(queryWord, word) else { continue }
                // A name word already matched counts only when no other does ("de" twice).
                let better = best.map { quality > $0.quality || (quality == $0.quality && used.contains($0.index) && !used.contains(index)) } ?? true
                if better { best = (quality, index) }
            }
            guard let best else { return nil }
            total += best.quality
            used.insert(best.index)
        }
        let coverage = Double(used.count) / Double(name.count)
        return total / Double(query.count) * (1 - coverageWeight + coverageWeight * coverage)
    }

    /// The optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions),
    /// or `bound + 1` as soon as it must exceed `bound`.
    /// Source: Damerau, "A technique for computer detection and correction of spelling errors", CACM 7(3), 1964.
    /// - Complexity: O(m · n).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], bound: Int) -> Int {
        if abs(a.count - b.count) > bound { return bound + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > bound { return bound + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return min(previous[b.count], bound + 1)
    }
}
