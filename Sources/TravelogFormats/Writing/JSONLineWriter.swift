/// JSON objects written member by member (members may open objects and arrays), one per line (JSON Lines), with the file writers'
/// escaping (`OutputBuffer.append(jsonEscaped:)`, RFC 8259 §7) and number formatting
/// (`FixedDecimalFormatter`): for command-line `--json` output at the speed of plain text, without
/// Foundation's dictionaries and `JSONSerialization` per line.
///
/// ```
/// writer.beginObject()
/// writer.member("name", string: "Zürich")
/// writer.member("latitude", number: 47.36667, decimals: 7)
/// writer.endObject()
/// writer.take(into: &output)   // {"name":"Zürich","latitude":47.36667}
/// ```
public final class JSONLineWriter {
    private let buffer = OutputBuffer(sink: MemoryByteSink(), drainThresholdBytes: 1 << 12)
    private var needsComma = false

    public init() {}

    /// Opens an object: `{`.
    public func beginObject() {
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the object: `}` (no newline; the caller ends the line).
    public func endObject() {
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an object as a member of the enclosing object: `"key":{`. Close it with ``endObject()``.
    public func beginObject(_ key: StaticString) {
        memberKey(key)
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Opens an array as a member of the enclosing object: `"key":[`. Close it with ``endArray()``.
    public func beginArray(_ key: StaticString) {
        memberKey(key)
        buffer.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Opens an object as the next element of the enclosing array.
    public func beginElementObject() {
        elementSeparator()
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Opens an array as the next element of the enclosing array.
    public func beginElementArray() {
        elementSeparator()
        buffer.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// A number as the next element of the enclosing array, as ``member(_:number:decimals:)`` writes it.
    public func element(number value: Double, decimals: Int) {
        elementSeparator()
        guard value.isFinite else { return buffer.append("null") }
        buffer.append(trimmed: value, decimals: decimals)
    }

    /// Closes an array: `]`.
    public func endArray() {
        buffer.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// `"key":"value"`, or `"key":null` when `value` is `nil`.
    /// - Parameter key: written as it is: ASCII that JSON needs no escape for.
    public func member(_ key: StaticString, string value: String?) {
        memberKey(key)
        guard let value else { return buffer.append("null") }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(jsonEscaped: value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// `"key":number` with at most `decimals` places, trailing zeros dropped (`1038.5`, `0`), or
    /// `"key":null` when `value` is `nil` or not finite (JSON has no infinity or NaN).
    /// - Parameter decimals: places kept, 0…15 (7 for degrees is 1 cm; 3 for metres is 1 mm).
    public func member(_ key: StaticString, number value: Double?, decimals: Int) {
        memberKey(key)
        guard let value, value.isFinite else { return buffer.append("null") }
        buffer.append(trimmed: value, decimals: decimals)
    }

    /// `"key":["a","b"]` (an empty array when `values` is empty).
    public func member(_ key: StaticString, strings values: [String]) {
        memberKey(key)
        buffer.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(UInt8(ascii: "\""))
            buffer.append(jsonEscaped: value)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// `"key":integer`, or `"key":null` when `value` is `nil`.
    public func member(_ key: StaticString, integer value: Int?) {
        memberKey(key)
        guard let value else { return buffer.append("null") }
        buffer.append(integer: value)
    }

    /// Appends what was written since the last call to `output`, and forgets it.
    public func take(into output: inout [UInt8]) {
        buffer.takePending(into: &output)
    }

    /// What was written since the last `take`, as text, and forgets it.
    public func takeText() -> String {
        var bytes: [UInt8] = []
        take(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func elementSeparator() {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    private func memberKey(_ key: StaticString) {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
        needsComma = true
        buffer.append(UInt8(ascii: "\""))
        buffer.append(key)
        buffer.append("\":")
    }
}
