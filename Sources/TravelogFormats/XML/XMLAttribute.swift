/// One attribute of a start tag: qualified name and decoded value, valid until the next event.
public struct XMLAttribute {
    /// The qualified name, e.g. `xsi:schemaLocation`.
    public let name: XMLBytes
    /// The value with references decoded and whitespace normalised (XML 1.0 §3.3.3).
    public let value: XMLBytes

    /// The name without its prefix, e.g. `schemaLocation`.
    public var localName: XMLBytes {
        guard let base = name.base else { return name }
        var index = 0
        while index < name.count - 1 {
            if base[index] == UInt8(ascii: ":") { return XMLBytes(base: base + index + 1, count: name.count - index - 1) }
            index += 1
        }
        return name
    }
}
