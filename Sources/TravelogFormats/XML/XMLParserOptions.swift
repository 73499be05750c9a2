/// How an `XMLPullParser` reads its input.
public struct XMLParserOptions: Hashable, Sendable {
    /// Whether runs of character data made only of XML whitespace (space, tab, CR, LF) are skipped
    /// instead of reported as `.text` (CDATA sections are always reported).
    public var skipsWhitespaceText: Bool
    /// Whether the parser collects the text of each element into `XMLPullParser.text`
    /// (settable on the parser at any time, e.g. off while a reader consumes a huge text itself).
    public var collectsText: Bool
    /// The size of the read buffer in bytes (at least 16). It grows only when one tag, or the
    /// collected text of one element, does not fit.
    public var bufferCapacityBytes: Int
    /// The largest tag (name and attributes) or collected element text accepted, in bytes:
    /// beyond it the parser throws `tokenTooLong` instead of growing without bound.
    public var maximumTokenBytes: Int

    /// - Parameters:
    ///   - skipsWhitespaceText: skip whitespace-only text runs (default `false`).
    ///   - collectsText: collect each element's text into `text` (default `true`).
    ///   - bufferCapacityBytes: read buffer size in bytes (default 128 KiB, at least 16).
    ///   - maximumTokenBytes: largest tag or collected text in bytes (default 64 MiB).
    public init(
        skipsWhitespaceText: Bool = false,
        collectsText: Bool = true,
        bufferCapacityBytes: Int = 128 * 1024,
        maximumTokenBytes: Int = 64 * 1024 * 1024
    ) {
        self.skipsWhitespaceText = skipsWhitespaceText
        self.collectsText = collectsText
        self.bufferCapacityBytes = max(16, bufferCapacityBytes)
        self.maximumTokenBytes = max(self.bufferCapacityBytes, maximumTokenBytes)
    }
}
