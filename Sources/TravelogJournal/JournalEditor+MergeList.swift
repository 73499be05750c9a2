import TravelogStore

extension JournalEditor {
    /// The most ids one merge takes, repeats included: a merge joins the entries of one device
    /// around a stay, a handful in practice; each id costs a look-up in the store.
    public static let maximumMergedEntries = 100

    /// The entries a merge request names, each once, in the order given.
    /// - Throws: `Failure.invalid` naming ``maximumMergedEntries`` when more ids are given.
    /// - Complexity: O(n) for n ids.
    public static func mergeList(_ ids: [VisitID]) throws(Failure) -> [VisitID] {
        guard ids.count <= maximumMergedEntries else {
            throw .invalid("a merge takes at most \(maximumMergedEntries) ids, not \(ids.count)")
        }
        var seen = Set<VisitID>()
        return ids.filter { seen.insert($0).inserted }
    }
}
