import PostgresNIO

/// One column of a batch as a one-dimensional array parameter in PostgreSQL's binary format, for
/// `INSERT … SELECT … FROM unnest($1::bigint[], $2::float8[], …)`: a whole batch in one statement,
/// with no text to format on this side nor to parse on the server's. Unlike PostgresNIO's own
/// array encoding it takes NULL elements (nullable columns) and is built value by value into one
/// buffer, without an array of optionals in between.
///
/// Source: PostgreSQL's `array_send`/`array_recv` (src/backend/utils/adt/arrayfuncs.c): number of
/// dimensions, a has-nulls flag, the element type's OID, then per dimension its length and lower
/// bound, then each element as a 32-bit length (-1 for NULL) and its binary value.
struct PostgresArrayColumn: PostgresDynamicTypeEncodable {
    /// Which values the column holds: the element type and the array type.
    enum Kind {
        case int8, int4, float8, text, bool

        var elementType: PostgresDataType {
            switch self {
            case .int8: .int8
            case .int4: .int4
            case .float8: .float8
            case .text: .text
            case .bool: .bool
            }
        }

        /// The array type's name in SQL, for casting a parameter.
        var arrayTypeName: String {
            switch self {
            case .int8: "bigint[]"
            case .int4: "integer[]"
            case .float8: "float8[]"
            case .text: "text[]"
            case .bool: "boolean[]"
            }
        }

        var arrayType: PostgresDataType {
            switch self {
            case .int8: .int8Array
            case .int4: .int4Array
            case .float8: .float8Array
            case .text: .textArray
            case .bool: .boolArray
            }
        }
    }

    let kind: Kind
    private var elements: ByteBuffer
    private(set) var count = 0
    private var hasNulls = false

    /// An empty column with room for `capacity` elements (a guess; the buffer grows as needed).
    init(_ kind: Kind, capacity: Int) {
        self.kind = kind
        let width = switch kind {
        case .bool: 5
        case .int4: 8
        case .int8, .float8: 12
        case .text: 16
        }
        elements = ByteBufferAllocator().buffer(capacity: capacity * width)
    }

    var psqlType: PostgresDataType { kind.arrayType }
    var psqlFormat: PostgresFormat { .binary }

    /// Appends an `int8` element (`nil` is NULL).
    mutating func append(_ value: Int64?) {
        precondition(kind == .int8, "an int8 value in a \(kind) column")
        guard let value else { return appendNull() }
        elements.writeInteger(Int32(8))
        elements.writeInteger(value)
        count += 1
    }

    /// Appends an `int4` element (`nil` is NULL).
    mutating func append(_ value: Int32?) {
        precondition(kind == .int4, "an int4 value in a \(kind) column")
        guard let value else { return appendNull() }
        elements.writeInteger(Int32(4))
        elements.writeInteger(value)
        count += 1
    }

    /// Appends a `float8` element (`nil` is NULL); every `Double`, NaN and infinities included,
    /// goes as its exact bits.
    mutating func append(_ value: Double?) {
        precondition(kind == .float8, "a float8 value in a \(kind) column")
        guard let value else { return appendNull() }
        elements.writeInteger(Int32(8))
        elements.writeInteger(value.bitPattern)
        count += 1
    }

    /// Appends a `text` element (`nil` is NULL).
    mutating func append(_ value: String?) {
        precondition(kind == .text, "a text value in a \(kind) column")
        guard let value else { return appendNull() }
        elements.writeInteger(Int32(value.utf8.count))
        elements.writeString(value)
        count += 1
    }

    /// Appends a `bool` element (`nil` is NULL).
    mutating func append(_ value: Bool?) {
        precondition(kind == .bool, "a bool value in a \(kind) column")
        guard let value else { return appendNull() }
        elements.writeInteger(Int32(1))
        elements.writeInteger(UInt8(value ? 1 : 0))
        count += 1
    }

    private mutating func appendNull() {
        elements.writeInteger(Int32(-1))
        hasNulls = true
        count += 1
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer,
                                                  context: PostgresEncodingContext<JSONEncoder>) {
        // An empty array has no dimensions.
        buffer.writeInteger(Int32(count == 0 ? 0 : 1))
        buffer.writeInteger(Int32(hasNulls ? 1 : 0))
        buffer.writeInteger(kind.elementType.rawValue)
        guard count > 0 else { return }
        buffer.writeInteger(Int32(count))
        buffer.writeInteger(Int32(1))
        buffer.writeImmutableBuffer(elements)
    }
}
