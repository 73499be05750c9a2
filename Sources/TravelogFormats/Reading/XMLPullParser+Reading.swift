/// What the GPX and KML readers need from the XML parser, with its errors as `FormatError`.
extension XMLPullParser {
    /// A parser over `source`, its encoding detected from the first bytes.
    /// - Throws: the source's `FormatError`, or `.xml` for an encoding the parser does not read.
    static func reading(_ source: any ByteSource, options: XMLParserOptions) throws(FormatError) -> XMLPullParser {
        do {
            return try XMLPullParser(source: source, options: options)
        } catch {
            throw FormatError(readingXML: error)
        }
    }

    /// `next()` with its errors as `FormatError`: `.xml` for a document that is not well-formed
    /// or is cut short, the source's own error when reading failed.
    @inline(__always)
    func nextEvent() throws(FormatError) -> XMLEvent? {
        do {
            return try next()
        } catch {
            throw FormatError(readingXML: error)
        }
    }

    /// At `.startElement`: an error saying the document's root is not `expected` (a KML file read
    /// as GPX), at the root's start tag.
    func unexpectedRoot(expected: String) -> FormatError {
        .unexpected(eventPosition, expected: "a <\(expected)> root element", found: "<\(name.string)>")
    }
}

extension FormatError {
    /// The error an `XMLPullParser` threw: an `XMLSyntaxError` or its source's `FormatError`
    /// (it throws nothing else).
    init(readingXML error: any Error) {
        switch error {
        case let syntax as XMLSyntaxError: self = .xml(syntax)
        case let format as FormatError: self = format
        default: self = .cannotRead(path: "the input", reason: String(describing: error))
        }
    }
}
