/// The qualified names of the open elements, outermost first, for matching end tags and for
/// error messages. Names are copied into one byte store: no allocation per element.
struct XMLElementStack {
    private var names = XMLGrowableBytes(capacity: 256)
    /// `ends[k]` is where the name of the element at depth k+1 ends in `names`.
    private var ends: UnsafeMutablePointer<Int>
    /// `localNameOffsets[k]`: where the local name starts in the name at depth k+1.
    private var localNameOffsets: UnsafeMutablePointer<Int>
    private var endsCapacity = 32
    private(set) var depth = 0

    init() {
        ends = .allocate(capacity: endsCapacity)
        localNameOffsets = .allocate(capacity: endsCapacity)
    }

    func deallocate() {
        names.deallocate()
        ends.deallocate()
        localNameOffsets.deallocate()
    }

    @inline(__always)
    mutating func push(_ name: UnsafePointer<UInt8>, count: Int, localNameOffset: Int) {
        if depth == endsCapacity { grow() }
        names.append(name, count: count)
        ends[depth] = names.count
        localNameOffsets[depth] = localNameOffset
        depth += 1
    }

    private mutating func grow() {
        let newEnds = UnsafeMutablePointer<Int>.allocate(capacity: endsCapacity * 2)
        newEnds.update(from: ends, count: depth)
        ends.deallocate()
        ends = newEnds
        let newOffsets = UnsafeMutablePointer<Int>.allocate(capacity: endsCapacity * 2)
        newOffsets.update(from: localNameOffsets, count: depth)
        localNameOffsets.deallocate()
        localNameOffsets = newOffsets
        endsCapacity *= 2
    }

    /// Where the local name starts in the innermost open element's name.
    var topLocalNameOffset: Int { depth > 0 ? localNameOffsets[depth - 1] : 0 }

    @inline(__always)
    mutating func pop() {
        guard depth > 0 else { return }
        depth -= 1
        names.count = depth > 0 ? ends[depth - 1] : 0
    }

    /// The innermost open element's name (empty when none).
    @inline(__always)
    var top: XMLBytes {
        guard depth > 0 else { return .empty }
        let start = depth > 1 ? ends[depth - 2] : 0
        return XMLBytes(base: names.base + start, count: ends[depth - 1] - start)
    }

    /// Every open element's name, outermost first.
    var allNames: [String] {
        (0..<depth).map { level in
            let start = level > 0 ? ends[level - 1] : 0
            return XMLBytes(base: names.base + start, count: ends[level] - start).string
        }
    }
}
