/// The attributes of the current start tag, in document order.
public struct XMLAttributes: RandomAccessCollection {
    private let slots: UnsafeMutablePointer<XMLAttributeSlots.Slot>
    public let count: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    private let scratch: UnsafeMutablePointer<UInt8>

    init(slots: UnsafeMutablePointer<XMLAttributeSlots.Slot>, count: Int, buffer: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>) {
        self.slots = slots
        self.count = count
        self.buffer = buffer
        self.scratch = scratch
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> XMLAttribute {
        precondition(position >= 0 && position < count, "attribute index out of range")
        let slot = slots[position]
        return XMLAttribute(
            name: XMLBytes(base: buffer + slot.nameStart, count: slot.nameCount),
            value: XMLBytes(base: (slot.isInScratch ? scratch : buffer) + slot.valueStart, count: slot.valueCount)
        )
    }
}
