/// A growable byte store the parser owns and frees itself (`deallocate()`): no copy-on-write
/// checks in the hot path, and it keeps its capacity when emptied.
struct XMLGrowableBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    /// Makes room for `extra` more bytes and returns where they go (`base + count`).
    @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(to: count + extra) }
        return base + count
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count extra: Int) {
        reserve(extra).update(from: bytes, count: extra)
        count += extra
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
