/// Turns each line of a filter's input into exactly one line of output, so that output lines stay
/// aligned with input lines (`travelog geodesic`, `travelog geocode reverse`). A line that cannot be
/// read gives `ERROR: line N: <what was expected>` in its place and counts as failed.
public protocol LineProcessor {
    /// The number of lines that printed an error.
    var failedLineCount: Int { get }

    /// Processes one line (without its line terminator) and appends the output line, with its
    /// newline, to `output`.
    mutating func process(line: UnsafeBufferPointer<UInt8>, into output: inout [UInt8])
}

extension LineProcessor {
    /// Processes one line given as a string and returns the output line without its newline.
    public mutating func process(line: String) -> String {
        var text = line, output: [UInt8] = []
        text.withUTF8 { process(line: $0, into: &output) }
        return String(decoding: output.dropLast(), as: UTF8.self)
    }
}
