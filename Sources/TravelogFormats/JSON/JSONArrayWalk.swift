/// Walks a JSON document down to the elements of the arrays a reader cares about, so that a reader
/// only handles one element at a time: the elements of a top-level array, or of the arrays under
/// chosen members of a top-level object (other members are skipped). Several of those arrays may
/// appear, in any order.
struct JSONArrayWalk {
    /// Where the elements are.
    enum Layout {
        /// The document is an array.
        case rootArray
        /// The document is an object; these members hold the arrays.
        case members([StaticString])
    }

    private enum Stage {
        case start, members, elements(Int), end, finished
    }

    private let layout: Layout
    private var stage = Stage.start

    init(_ layout: Layout) {
        self.layout = layout
    }

    /// The next element: which array it is in (the index of its member; 0 for a root array) and its
    /// first event (the reader then reads or skips the rest of it); `nil` after the document ended.
    /// - Throws: the parser's errors, and a type mismatch when the document's shape is wrong.
    mutating func nextElement(from parser: inout JSONParser) throws -> (array: Int, event: JSONEvent)? {
        while true {
            switch stage {
            case .start:
                switch layout {
                case .rootArray:
                    try parser.expect(.arrayStart)
                    stage = .elements(0)
                case .members:
                    try parser.expect(.objectStart)
                    stage = .members
                }
            case .members:
                guard try parser.nextKey() else {
                    stage = .end
                    continue
                }
                guard case .members(let keys) = layout,
                      let index = keys.firstIndex(where: { parser.stringEquals($0) }) else {
                    try parser.skipValue()
                    continue
                }
                try parser.expect(.arrayStart)
                stage = .elements(index)
            case .elements(let index):
                guard let event = try parser.nextElement() else {
                    if case .rootArray = layout { stage = .end } else { stage = .members }
                    continue
                }
                return (index, event)
            case .end:
                _ = try parser.next()  // nil after a complete document; trailing bytes throw
                stage = .finished
            case .finished:
                return nil
            }
        }
    }
}
