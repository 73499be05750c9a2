/// The places of several extracts together: where extracts overlap, an OSM element is taken from
/// the most recently added file that has it, once.
public struct OSMPlaceSet: Sendable {
    /// The files, oldest first.
    public let files: [OSMPlacesFile]

    public init(files: [OSMPlacesFile]) {
        self.files = files
    }

    /// Whether the place at `index` of file `fileIndex` is also in a later file (which wins).
    /// - Complexity: O(files × log places).
    public func isShadowed(fileIndex: Int, index: Int) -> Bool {
        let file = files[fileIndex]
        let type = file.elementType(at: index), id = file.id(at: index)
        return files[(fileIndex + 1)...].contains { $0.index(of: type, id: id) != nil }
    }

    /// Every place once, newest file's version of shared ones.
    /// - Complexity: O(places × files × log places).
    public func forEachPlace(_ body: (_ fileIndex: Int, _ index: Int) throws -> Void) rethrows {
        for fileIndex in files.indices {
            for index in 0..<files[fileIndex].count where !isShadowed(fileIndex: fileIndex, index: index) {
                try body(fileIndex, index)
            }
        }
    }

    /// The number of distinct places.
    public var count: Int {
        var total = 0
        forEachPlace { _, _ in total += 1 }
        return total
    }
}
