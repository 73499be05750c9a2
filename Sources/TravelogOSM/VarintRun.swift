/// Integers decoded from a repeated protobuf field, in storage that is reused from one object of
/// a block to the next: the tags' string indexes, a way's node references and a dense group's
/// coordinates are read here and copied into what an object keeps, so decoding an object costs
/// the allocations of what it keeps and no more. The storage grows (doubling) and is never shrunk.
struct VarintRun: ~Copyable {
    private var storage: UnsafeMutablePointer<Int64>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    var isEmpty: Bool { count == 0 }
    var last: Int64? { count > 0 ? storage[count - 1] : nil }
    var indices: Range<Int> { 0..<count }

    subscript(index: Int) -> Int64 {
        precondition(index >= 0 && index < count, "index out of range")
        return storage[index]
    }

    mutating func removeAll() { count = 0 }

    mutating func append(_ value: Int64) {
        reserve(1)
        storage[count] = value
        count += 1
    }

    /// Room for `extra` more values, and where the next of them goes: the caller writes them and
    /// then calls ``didAppend(_:)``.
    @discardableResult
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<Int64> {
        if count + extra > capacity {
            var newCapacity = capacity * 2
            while newCapacity < count + extra { newCapacity *= 2 }
            let grown = UnsafeMutablePointer<Int64>.allocate(capacity: newCapacity)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity = newCapacity
        }
        return storage + count
    }

    mutating func didAppend(_ written: Int) { count += written }

    /// The values as an array of their own (what an object keeps).
    func array() -> [Int64] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }
}
