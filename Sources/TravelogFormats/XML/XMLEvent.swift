/// What `XMLPullParser.next()` found. The data of the event (names, attributes, text) is read from
/// the parser until the following call to `next()`.
public enum XMLEvent: Hashable, Sendable {
    /// A start tag `<name …>`, or the first half of a self-closing `<name …/>`.
    case startElement
    /// An end tag `</name>`, or the second half of a self-closing `<name …/>`.
    case endElement
    /// Character data (entities decoded, CDATA included). A long run can arrive in several
    /// consecutive events; their concatenation is the content.
    case text
}
