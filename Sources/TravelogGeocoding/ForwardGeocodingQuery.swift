/// Free text to geocode, as folded words grouped by the commas that separate its parts:
/// "1 Infinite Loop, Cupertino, CA USA" → [["1", "infinite", "loop"], ["cupertino"], ["ca", "usa"]].
///
/// Commas only group: a part may hold a name and its qualifiers ("Paris France", "Springfield IL").
public struct ForwardGeocodingQuery: Hashable, Sendable {
    /// The non-empty parts, each as its folded words (see `PlaceNameFolding`).
    public let components: [[String]]

    /// Splits `text` at commas (and semicolons) and folds each part into words.
    public init(_ text: String) {
        components = text.split(whereSeparator: { $0 == "," || $0 == ";" })
            .map { PlaceNameFolding.words($0) }
            .filter { !$0.isEmpty }
        wordCount = components.reduce(0) { $0 + $1.count }
    }

    /// The number of words in all parts.
    public let wordCount: Int
}
