/// A problem at a byte offset of the buffer a ``ProtobufReader`` reads.
struct ProtobufFailure: Error {
    let offset: Int
    let problem: OSMPBFWireProblem
    /// The innermost message being decoded, set by ``within(_:_:)`` as the failure leaves it.
    var message: OSMPBFMessage?

    init(offset: Int, problem: OSMPBFWireProblem) {
        self.offset = offset
        self.problem = problem
    }

    /// Runs `body`, naming `message` in a failure that does not name one yet.
    @inline(__always)
    static func within<T>(_ message: OSMPBFMessage, _ body: () throws(ProtobufFailure) -> T) throws(ProtobufFailure) -> T {
        do {
            return try body()
        } catch {
            var failure = error
            if failure.message == nil { failure.message = message }
            throw failure
        }
    }
}

/// The protobuf wire types (protobuf.dev/programming-guides/encoding).
enum ProtobufWireType: Int {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// Reads protobuf's wire format over bytes it does not own: fields, varints (zig-zag for `sint`),
/// length-delimited slices (a sub-message is a reader over its range of the same buffer, so offsets
/// in errors are offsets in the whole buffer). Only what `.osm.pbf` uses: no groups, no reflection.
///
/// A reader, not swift-protobuf: the package list has no swift-protobuf, and the format's
/// hot path (packed delta-coded arrays of dense nodes) wants a loop over varints with no message
/// objects in between. Every read is bounds-checked and throws ``ProtobufFailure``.
struct ProtobufReader {
    let buffer: UnsafeRawBufferPointer
    private(set) var position: Int
    let end: Int

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
        position = 0
        end = buffer.count
    }

    private init(buffer: UnsafeRawBufferPointer, range: Range<Int>) {
        self.buffer = buffer
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type, or `nil` at the end of the message.
    mutating func nextField() throws(ProtobufFailure) -> (number: Int, wireType: Int)? {
        guard position < end else { return nil }
        let start = position
        let key = try varint()
        let wireType = Int(key & 7)
        let number = key >> 3
        guard number > 0, number <= 0x1FFF_FFFF else {
            throw ProtobufFailure(offset: start, problem: .unknownWireType(field: Int(truncatingIfNeeded: number), wireType: wireType))
        }
        return (Int(number), wireType)
    }

    /// An unsigned varint (at most 10 bytes).
    @inline(__always)
    mutating func varint() throws(ProtobufFailure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while position < end {
            let byte = buffer[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 70 { break }
        }
        throw ProtobufFailure(offset: start, problem: .badVarint)
    }

    /// A `sint64` (zig-zag) varint.
    @inline(__always)
    mutating func signedVarint() throws(ProtobufFailure) -> Int64 {
        Self.zigZag(try varint())
    }

    @inline(__always)
    static func zigZag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// A length-delimited field's bytes as a reader over them (the position moves past them).
    mutating func lengthDelimited() throws(ProtobufFailure) -> ProtobufReader {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw ProtobufFailure(offset: start, problem: .lengthBeyondEnd(declared: Int(clamping: length), remaining: end - position))
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return ProtobufReader(buffer: buffer, range: range)
    }

    /// A length-delimited field's bytes as a string; invalid UTF-8 is an error.
    mutating func string(field: Int) throws(ProtobufFailure) -> String {
        let slice = try lengthDelimited()
        return try slice.remainingString(field: field)
    }

    /// The bytes from the position to the end, as a string.
    func remainingString(field: Int) throws(ProtobufFailure) -> String {
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[position..<end])
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw ProtobufFailure(offset: position, problem: .invalidUTF8(field: field))
        }
        return string
    }

    /// The range of the remaining bytes in the buffer.
    var remainingRange: Range<Int> { position..<end }

    /// Skips a field's value of the given wire type.
    mutating func skip(field: Int, wireType: Int) throws(ProtobufFailure) {
        switch ProtobufWireType(rawValue: wireType) {
        case .varint: _ = try varint()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case nil: throw ProtobufFailure(offset: position, problem: .unknownWireType(field: field, wireType: wireType))
        }
    }

    private mutating func advance(_ count: Int) throws(ProtobufFailure) {
        guard count <= end - position else {
            throw ProtobufFailure(offset: position, problem: .lengthBeyondEnd(declared: count, remaining: end - position))
        }
        position += count
    }

    /// Checks that a field has the wire type its definition gives it.
    func expect(_ wireType: Int, _ expected: ProtobufWireType, field: Int) throws(ProtobufFailure) {
        guard wireType == expected.rawValue else {
            throw ProtobufFailure(offset: position, problem: .wrongWireType(field: field, wireType: wireType))
        }
    }

    /// A repeated field of varints as `Int64` (`int32`, `int64`, `uint32`; wrapping as the encoding
    /// does), packed (one length-delimited run) or not (one value), appended to `values`.
    mutating func appendVarints(to values: inout VarintRun, field: Int, wireType: Int) throws(ProtobufFailure) {
        if wireType == ProtobufWireType.varint.rawValue {
            values.append(Int64(bitPattern: try varint()))
            return
        }
        try expect(wireType, .lengthDelimited, field: field)
        try lengthDelimited().decodePacked(into: &values, deltas: false)
    }

    /// A repeated `sint64` field delta-coded (each value is the previous plus the decoded one),
    /// appended as absolute values. Sums wrap rather than trap: a damaged file gives wrong numbers
    /// that the caller's range checks catch, never a crash.
    mutating func appendDeltas(to values: inout VarintRun, field: Int, wireType: Int) throws(ProtobufFailure) {
        if wireType == ProtobufWireType.varint.rawValue {
            values.append((values.last ?? 0) &+ Self.zigZag(try varint()))  // a run split over several fields continues the deltas
            return
        }
        try expect(wireType, .lengthDelimited, field: field)
        try lengthDelimited().decodePacked(into: &values, deltas: true)
    }

    /// Appends the varints from the position to the end (a packed run), zig-zag delta-decoded
    /// when `deltas`. Room for one value per byte (the most there can be) is reserved once, so the
    /// loop writes without a capacity check per value; the storage is reused, so the over-reservation
    /// costs nothing after the first block.
    /// - Complexity: O(bytes).
    func decodePacked(into values: inout VarintRun, deltas: Bool) throws(ProtobufFailure) {
        guard position < end else { return }
        var last = values.last ?? 0  // a run split over several fields continues the deltas
        let output = values.reserve(end - position)
        var cursor = position
        var written = 0
        while cursor < end {
            let start = cursor
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                // A varint cut by the end of the run, or longer than ten bytes, is named by its first byte.
                guard cursor < end, shift < 70 else { throw ProtobufFailure(offset: start, problem: .badVarint) }
                let byte = buffer[cursor]
                cursor += 1
                result |= UInt64(byte & 0x7F) &<< shift
                if byte < 0x80 { break }
                shift += 7
            }
            if deltas {
                last &+= Self.zigZag(result)
                output[written] = last
            } else {
                output[written] = Int64(bitPattern: result)
            }
            written += 1
        }
        values.didAppend(written)
    }
}
