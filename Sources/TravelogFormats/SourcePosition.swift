/// Where in an input something was found: byte offset from the start (0-based), line and column
/// (1-based, column counted in bytes).
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    public var byteOffset: Int
    public var line: Int
    public var column: Int

    public init(byteOffset: Int, line: Int, column: Int) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// `line 3, column 7 (byte 52)`, or `byte 52` where lines are not counted (line 0).
    public var description: String { line > 0 ? "line \(line), column \(column) (byte \(byteOffset))" : "byte \(byteOffset)" }
}
