/// The character data since the last tag, so that at `</ele>` a reader reads the element's whole
/// text. A single run still in the input buffer is only pointed at (no copy) until the buffer
/// moves; further runs, decoded runs, and runs about to move are copied into owned storage.
struct XMLTextAccumulator {
    private var owned = XMLGrowableBytes(capacity: 256)
    /// A run in the input buffer, valid until the next refill.
    private var pinned: UnsafePointer<UInt8>?
    private var pinnedCount = 0

    func deallocate() { owned.deallocate() }

    /// The collected bytes in total.
    var count: Int { pinned == nil ? owned.count : pinnedCount }

    @inline(__always)
    mutating func reset() {
        pinned = nil
        owned.count = 0
    }

    /// Adds a run. `isStable` says the bytes stay put until the next refill (input buffer).
    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count: Int, isStable: Bool) {
        if isStable, pinned == nil, owned.count == 0 {
            pinned = bytes
            pinnedCount = count
            return
        }
        unpin()
        owned.append(bytes, count: count)
    }

    /// Copies a pinned run into owned storage (before the input buffer moves).
    @inline(__always)
    mutating func unpin() {
        guard let run = pinned else { return }
        pinned = nil
        owned.append(run, count: pinnedCount)
    }

    var bytes: XMLBytes {
        if let pinned { return XMLBytes(base: pinned, count: pinnedCount) }
        return XMLBytes(base: owned.base, count: owned.count)
    }
}
