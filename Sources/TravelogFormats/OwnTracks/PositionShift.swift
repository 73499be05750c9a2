/// Turns positions inside a piece of JSON into positions in the file: identity for a JSON file,
/// an offset into the line for the JSON of a `.rec` line.
struct PositionShift {
    /// The file's byte offset of the JSON's first byte.
    var byteOffset = 0
    /// The file's line of the JSON, when it is one line of a larger file.
    var line: Int?
    /// Bytes on that line before the JSON.
    var columnOffset = 0

    static let identity = PositionShift()

    func callAsFunction(_ position: SourcePosition) -> SourcePosition {
        guard let line else { return position }
        return SourcePosition(byteOffset: byteOffset + position.byteOffset, line: line, column: columnOffset + position.column)
    }
}
