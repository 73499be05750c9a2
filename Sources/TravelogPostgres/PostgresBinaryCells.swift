import PostgresNIO
import TravelogStore

/// Reads a row's cells one after the other straight from their binary form (PostgresNIO asks for
/// every result column in binary): the reads of many rows (the journal's, the tile index's, a move)
/// decode each value with a length check and a load, where `PostgresRow.decode` of a tuple went
/// through PostgresNIO's generic decoding for each cell (a third of the server's time under
/// Overland load on PostgreSQL, 2026-11-26).
///
/// Each read checks the column's type; a cell of another type, a NULL where a value is required
/// or a row with fewer cells throws `StoreError.database`.
struct PostgresBinaryCells {
    private var cells: PostgresRow.Iterator
    /// What the reading was for, in errors.
    let operation: String

    init(_ row: PostgresRow, operation: String) {
        cells = row.makeIterator()
        self.operation = operation
    }

    /// The next cell, in binary format.
    private mutating func nextCell() throws(StoreError) -> PostgresCell {
        guard let cell = cells.next() else {
            throw .database(operation: operation, message: "the row has fewer columns than read")
        }
        guard cell.format == .binary else {
            throw .database(operation: operation, message: "column \(cell.columnName) is not in binary format")
        }
        return cell
    }

    /// The next cell's bytes (`nil` for NULL), after checking its type.
    private mutating func next(_ type: PostgresDataType) throws(StoreError) -> ByteBuffer? {
        let cell = try nextCell()
        guard cell.dataType == type else {
            throw .database(operation: operation, message: "column \(cell.columnName) is \(cell.dataType), not \(type)")
        }
        return cell.bytes
    }

    private func required<Value>(_ value: Value?, _ type: PostgresDataType) throws(StoreError) -> Value {
        guard let value else { throw .database(operation: operation, message: "a NULL \(type) where a value is required") }
        return value
    }

    private func malformed(_ type: PostgresDataType, _ bytes: ByteBuffer) -> StoreError {
        .database(operation: operation, message: "a \(type) value of \(bytes.readableBytes) bytes")
    }

    mutating func optionalInt64() throws(StoreError) -> Int64? {
        guard var bytes = try next(.int8) else { return nil }
        guard bytes.readableBytes == 8, let value = bytes.readInteger(as: Int64.self) else { throw malformed(.int8, bytes) }
        return value
    }

    mutating func optionalInt32() throws(StoreError) -> Int32? {
        guard var bytes = try next(.int4) else { return nil }
        guard bytes.readableBytes == 4, let value = bytes.readInteger(as: Int32.self) else { throw malformed(.int4, bytes) }
        return value
    }

    mutating func optionalDouble() throws(StoreError) -> Double? {
        guard var bytes = try next(.float8) else { return nil }
        guard bytes.readableBytes == 8, let bits = bytes.readInteger(as: UInt64.self) else { throw malformed(.float8, bytes) }
        return Double(bitPattern: bits)
    }

    mutating func optionalString() throws(StoreError) -> String? {
        guard var bytes = try next(.text) else { return nil }
        return bytes.readString(length: bytes.readableBytes)
    }

    /// The next cell as a one-dimensional array without NULL elements (`array_agg` of a NOT NULL
    /// column; a NULL cell, the aggregate of no rows, is the empty array). Its binary form is the
    /// one ``PostgresArrayColumn`` writes.
    mutating func int64Array() throws(StoreError) -> [Int64] {
        try array(.int8Array, of: .int8, width: 8) { $0.readInteger(as: Int64.self) }
    }

    mutating func int32Array() throws(StoreError) -> [Int32] {
        try array(.int4Array, of: .int4, width: 4) { $0.readInteger(as: Int32.self) }
    }

    mutating func doubleArray() throws(StoreError) -> [Double] {
        try array(.float8Array, of: .float8, width: 8) { $0.readInteger(as: UInt64.self).map(Double.init(bitPattern:)) }
    }

    private mutating func array<Element>(_ type: PostgresDataType, of element: PostgresDataType, width: Int32,
                                         _ read: (inout ByteBuffer) -> Element?) throws(StoreError) -> [Element] {
        guard var bytes = try next(type) else { return [] }
        guard let (elementType, count) = Self.readArrayHeader(from: &bytes) else { throw malformed(type, bytes) }
        guard count > 0 else { return [] }
        guard elementType == element else {
            throw .database(operation: operation, message: "an array of \(elementType), not of \(element)")
        }
        // Each element: its length, then its value; a NULL (length -1, no value) makes the sizes differ.
        guard bytes.readableBytes == count * Int(4 + width) else { throw malformed(type, bytes) }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            guard bytes.readInteger(as: Int32.self) == width, let value = read(&bytes) else { throw malformed(type, bytes) }
            elements.append(value)
        }
        return elements
    }

    mutating func int64() throws(StoreError) -> Int64 { try required(try optionalInt64(), .int8) }
    mutating func int32() throws(StoreError) -> Int32 { try required(try optionalInt32(), .int4) }
    mutating func double() throws(StoreError) -> Double { try required(try optionalDouble(), .float8) }
    mutating func string() throws(StoreError) -> String { try required(try optionalString(), .text) }

    /// The next cell as a move carries it (`StoreValue`): any integer type as `.integer`, a
    /// boolean as the integer 0 or 1.
    mutating func storeValue(_ kind: StoreTable.Kind) throws(StoreError) -> StoreValue {
        let cell = try nextCell()
        guard var bytes = cell.bytes else { return .null }
        let length = bytes.readableBytes
        guard let value = Self.readStoreValue(kind, cell.dataType, length: length, from: &bytes) else {
            throw .database(operation: operation, message: "column \(cell.columnName) is \(cell.dataType) of \(length) bytes, not \(kind)")
        }
        return value
    }

    /// The next cell as a one-dimensional array of values as a move carries them (`array_agg` of
    /// a column: NULL elements are `.null`; a NULL cell, the aggregate of no rows, is empty), each
    /// element read as `storeValue` reads a cell. The binary form is `array_send`'s, as
    /// ``PostgresArrayColumn`` writes it.
    mutating func storeValues(_ kind: StoreTable.Kind) throws(StoreError) -> [StoreValue] {
        let cell = try nextCell()
        guard var bytes = cell.bytes else { return [] }
        let malformed = StoreError.database(operation: operation, message: "column \(cell.columnName) is not a well-formed array")
        guard let (elementType, count) = Self.readArrayHeader(from: &bytes) else { throw malformed }
        var values: [StoreValue] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = bytes.readInteger(as: Int32.self), Int(length) <= bytes.readableBytes else { throw malformed }
            if length < 0 {
                values.append(.null)
                continue
            }
            // Straight from the array's buffer: a slice per element cost a retain and a release.
            guard let value = Self.readStoreValue(kind, elementType, length: Int(length), from: &bytes) else {
                throw .database(operation: operation, message: "column \(cell.columnName) holds \(elementType) of \(length) bytes, not \(kind)")
            }
            values.append(value)
        }
        guard bytes.readableBytes == 0 else { throw malformed }
        return values
    }

    /// Reads the header of a one-dimensional array in binary form (`array_send`'s: dimensions, a
    /// has-nulls flag, the element type, then the length and lower bound of the dimension), up to
    /// its first element. - Returns: the element type and the count (0 for no dimensions), `nil`
    /// when malformed or of more dimensions.
    private static func readArrayHeader(from bytes: inout ByteBuffer) -> (elementType: PostgresDataType, count: Int)? {
        guard let dimensions = bytes.readInteger(as: Int32.self), bytes.readInteger(as: Int32.self) != nil,
              let elementType = bytes.readInteger(as: UInt32.self) else { return nil }
        if dimensions == 0 { return (PostgresDataType(elementType), 0) }
        guard dimensions == 1, let count = bytes.readInteger(as: Int32.self), count >= 0,
              bytes.readInteger(as: Int32.self) != nil else { return nil }
        return (PostgresDataType(elementType), Int(count))
    }

    /// Reads a value of `type`, `length` bytes in binary form, as a move carries it; `nil` (having
    /// read nothing) when it does not fit `kind`.
    private static func readStoreValue(_ kind: StoreTable.Kind, _ type: PostgresDataType, length: Int,
                                       from bytes: inout ByteBuffer) -> StoreValue? {
        switch (kind, type, length) {
        case (.integer, .int8, 8): bytes.readInteger(as: Int64.self).map { .integer($0) }
        case (.integer, .int4, 4): bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) }
        case (.integer, .int2, 2): bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) }
        case (.real, .float8, 8): bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) }
        case (.text, .text, _), (.text, .varchar, _): bytes.readString(length: length).map { .text($0) }
        case (.boolean, .bool, 1): bytes.readInteger(as: UInt8.self).map { .integer($0 == 0 ? 0 : 1) }
        default: nil
        }
    }
}
