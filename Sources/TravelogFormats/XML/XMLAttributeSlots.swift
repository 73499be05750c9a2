/// Where the current start tag's attributes are: names in the input buffer, values in the input
/// buffer or (when references or whitespace had to be decoded) in the scratch store.
struct XMLAttributeSlots {
    struct Slot {
        var nameStart: Int
        var nameCount: Int
        var valueStart: Int
        var valueCount: Int
        /// The value holds `&` or tab/LF/CR and is decoded into scratch at the end of the tag.
        var needsDecoding: Bool
        var isInScratch = false
    }

    private(set) var slots: UnsafeMutablePointer<Slot>
    private var capacity = 16
    private(set) var count = 0

    init() { slots = .allocate(capacity: capacity) }

    func deallocate() { slots.deallocate() }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ slot: Slot) {
        if count == capacity {
            let newSlots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity * 2)
            newSlots.update(from: slots, count: count)
            slots.deallocate()
            slots = newSlots
            capacity *= 2
        }
        slots[count] = slot
        count += 1
    }
}
