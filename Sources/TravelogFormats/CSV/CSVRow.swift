/// One row of a CSV file: the bytes of its fields (quotes removed, doubled quotes undone, a line
/// break inside quotes kept as LF) and where each field starts in the file. A reader fills the same
/// row again and again, so reading a file allocates nothing per row once the row has grown.
public struct CSVRow: Sendable {
    /// The fields' bytes, one after the other.
    public private(set) var bytes: [UInt8] = []
    /// Where each field ends in `bytes` (field `i` starts where field `i - 1` ends).
    private var fieldEnds: [Int] = []
    /// Where each field starts in the input (its opening quote, for a quoted field).
    private var fieldPositions: [SourcePosition] = []
    /// The position just past the row's last byte (where a missing field would have been).
    public internal(set) var endPosition = SourcePosition(byteOffset: 0, line: 1, column: 1)

    public init() {}

    /// How many fields the row has.
    public var count: Int { fieldEnds.count }

    /// The bytes of field `index` (0-based).
    public subscript(index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]]
    }

    /// Field `index` as text (invalid UTF-8 replaced).
    public func string(_ index: Int) -> String {
        String(decoding: self[index], as: UTF8.self)
    }

    /// Where field `index` starts in the input.
    public func position(ofField index: Int) -> SourcePosition { fieldPositions[index] }

    /// Whether field `index` holds only spaces and tabs, or nothing.
    public func isBlank(_ index: Int) -> Bool {
        self[index].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// Lends the row's storage as a view that slices fields without reference counting.
    func withView<Result, Failure: Error>(_ body: (CSVRowView) throws(Failure) -> Result) throws(Failure) -> Result {
        try bytes.withUnsafeBufferPointer { (bytes) throws(Failure) in
            try fieldEnds.withUnsafeBufferPointer { (ends) throws(Failure) in
                try fieldPositions.withUnsafeBufferPointer { (positions) throws(Failure) in
                    try body(CSVRowView(bytes: bytes, ends: ends, positions: positions, endPosition: endPosition))
                }
            }
        }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        fieldPositions.removeAll(keepingCapacity: true)
    }

    mutating func startField(at position: SourcePosition) { fieldPositions.append(position) }

    mutating func endField() { fieldEnds.append(bytes.count) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(contentsOf buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
}

/// A row's fields without ownership, valid inside `CSVRow.withView`.
struct CSVRowView {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<Int>
    let positions: UnsafeBufferPointer<SourcePosition>
    let endPosition: SourcePosition

    var count: Int { ends.count }

    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
    }

    func position(ofField index: Int) -> SourcePosition { positions[index] }

    func isBlank(_ index: Int) -> Bool {
        self[index].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// Field `index` as text, at most `maximumBytes` of it (invalid UTF-8 replaced).
    func string(_ index: Int, maximumBytes: Int = .max) -> String {
        String(decoding: self[index].prefix(maximumBytes), as: UTF8.self)
    }
}
