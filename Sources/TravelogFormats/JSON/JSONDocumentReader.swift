/// What every reader of a JSON location document shares: the pull parser, the walk down to the
/// arrays that hold the records (`JSONArrayWalk`), the records of the element being handed out, and
/// the error latch (a broken file throws the same `FormatError` on every later call).
///
/// A format subclasses it and reads one element at a time in `readElement`. Memory: one element's
/// records, whatever the file size.
public class JSONDocumentReader: LocationFileReader {
    var parser: JSONParser
    private var walk: JSONArrayWalk
    private var failure: FormatError?
    private var pending: [FormatRecord] = []
    private var pendingIndex = 0

    init(source: some ByteSource, options: JSONParser.Options, layout: JSONArrayWalk.Layout) {
        parser = JSONParser(source: source, options: options)
        walk = JSONArrayWalk(layout)
    }

    public var bytesConsumed: Int { parser.bytesConsumed }

    /// The next record, nil at the end of the file.
    /// - Throws: `FormatError` when the file is broken; every later call throws it again.
    public func next() throws(FormatError) -> FormatRecord? {
        if let failure { throw failure }
        do {
            return try advance()
        } catch {
            let mapped = FormatError(json: error)
            failure = mapped
            throw mapped
        }
    }

    private func advance() throws -> FormatRecord? {
        while true {
            if pendingIndex < pending.count {
                defer { pendingIndex += 1 }
                return pending[pendingIndex]
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard let (array, event) = try walk.nextElement(from: &parser) else { return nil }
            if let record = try readElement(array: array, startingWith: event, into: &pending) { return record }
        }
    }

    /// Reads one element of the document's arrays (`array` is the index of its member in the
    /// layout, 0 for a root array) whose first event is `event`: returns its only record directly,
    /// or appends its records to `records` (several, or none) and returns nil. Subclasses override it.
    func readElement(array: Int, startingWith event: JSONEvent, into records: inout [FormatRecord]) throws -> FormatRecord? {
        try parser.skipRest(after: event)
        return nil
    }
}
