import TravelogFormats

/// Renders a document's events as lines (`<name a="v">`, `</name>`, `"text"`), the language of
/// the event tests: readable in a failure message and compared exactly.
enum XMLEventRecorder {
    /// Every event of the parser, adjacent text parts merged when `mergingText` (parts depend
    /// on buffer size).
    static func events(of parser: XMLPullParser, mergingText: Bool = false) throws -> [String] {
        var lines: [String] = []
        var pendingText: String?
        func flush() {
            if let text = pendingText { lines.append("\"\(text)\"") }
            pendingText = nil
        }
        while let event = try parser.next() {
            switch event {
            case .startElement:
                flush()
                let attributes = parser.attributes.map { " \($0.name)=\"\($0.value)\"" }.joined()
                lines.append("<\(parser.name)\(attributes)>")
            case .endElement:
                flush()
                lines.append("</\(parser.name)>")
            case .text:
                if mergingText {
                    pendingText = (pendingText ?? "") + parser.characters.string
                } else {
                    lines.append("\"\(parser.characters)\"")
                }
            }
        }
        flush()
        return lines
    }

    /// The events of `document` read from memory.
    static func events(_ document: String, options: XMLParserOptions = .init()) throws -> [String] {
        try events(of: XMLPullParser(bytes: Array(document.utf8), options: options))
    }
}
