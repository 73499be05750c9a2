/// A streaming XML pull parser: call `next()` for each event and read the event's data from the
/// parser. The input is read in blocks, so memory stays flat whatever its size (bounded by the
/// buffer and the largest tag or collected element text); UTF-16 and Latin-1/Windows-1252 input
/// is transcoded to UTF-8 on the fly. A document that is not well-formed, or is cut short, throws
/// `XMLSyntaxError` with the position in the original bytes; `next()` returns `nil` only after a
/// complete document.
///
/// ```swift
/// let parser = try XMLPullParser(path: "track.gpx", options: .init(skipsWhitespaceText: true))
/// while let event = try parser.next() {
///     switch event {
///     case .startElement where parser.localName == "trkpt":
///         latitude = parser.attribute("lat")?.parseDouble()
///     case .endElement where parser.localName == "ele":
///         elevation = parser.text.parseDouble()
///     default: break
///     }
/// }
/// ```
///
/// The grammar is XML 1.0 (Fifth Edition) without DTD processing: a DOCTYPE is skipped, and
/// entities other than the five predefined ones are errors.
///
/// Names, attribute values and texts are `XMLBytes` views valid until the next call to `next()`.
/// Namespaces are not resolved: `name` is the qualified name as written and `localName` the part
/// after its prefix. Not thread-safe: one parser is used by one task.
///
/// - Complexity: O(n) in the input size, no allocation per event once buffers have their size.
public final class XMLPullParser {
    /// The state lives behind a pointer held in a constant: the hot path then needs no dynamic
    /// exclusivity check (which a class's stored `var` would cost on every access).
    private let state: UnsafeMutablePointer<XMLTokenizer>
    /// The size of the input in bytes, when the source knows it.
    public let sourceSizeBytes: Int?

    /// A parser reading `source` from its start.
    /// - Throws: errors of the source, or `XMLSyntaxError.unsupportedEncoding`.
    public init(source: any ByteSource, options: XMLParserOptions = .init()) throws {
        let input = try XMLInputBuffer(source: source, options: options)
        state = .allocate(capacity: 1)
        state.initialize(to: XMLTokenizer(input: input, options: options))
        sourceSizeBytes = source.totalByteCount
    }

    /// A parser reading the file at `path` block by block.
    /// - Throws: `FormatError.cannotRead`, or `XMLSyntaxError.unsupportedEncoding`.
    public convenience init(path: String, options: XMLParserOptions = .init()) throws {
        try self.init(source: FileByteSource(path: path), options: options)
    }

    /// A parser reading a document in memory.
    public convenience init(bytes: [UInt8], options: XMLParserOptions = .init()) throws {
        try self.init(source: MemoryByteSource(bytes), options: options)
    }

    deinit {
        state.pointee.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Reads up to the next event. Returns `nil` after the end of a complete, well-formed document.
    /// - Throws: `XMLSyntaxError`, or the byte source's errors. After an error every later call
    ///   throws it again: the document cannot be read further.
    public func next() throws -> XMLEvent? {
        if let failure = state.pointee.failure { throw failure }
        do {
            let event = try state.pointee.next()
            state.pointee.event = event
            return event
        } catch {
            state.pointee.failure = error
            throw error
        }
    }

    /// The event `next()` returned last.
    public var event: XMLEvent? { state.pointee.event }

    /// The input's encoding, detected from its first bytes.
    public var encoding: XMLEncoding { state.pointee.input.encoding }

    /// At `.startElement` and `.endElement`: the qualified name, e.g. `gpxtpx:hr`.
    public var name: XMLBytes {
        XMLBytes(base: state.pointee.input.bytes + state.pointee.nameStart, count: state.pointee.nameCount)
    }

    /// At `.startElement` and `.endElement`: the name without its prefix, e.g. `hr`.
    public var localName: XMLBytes {
        let offset = state.pointee.localNameOffset
        return XMLBytes(base: state.pointee.input.bytes + state.pointee.nameStart + offset, count: state.pointee.nameCount - offset)
    }

    /// At `.startElement`: the attributes in document order, values decoded.
    public var attributes: XMLAttributes {
        XMLAttributes(
            slots: state.pointee.attributes.slots, count: state.pointee.attributes.count,
            buffer: state.pointee.input.bytes, scratch: state.pointee.scratch.base
        )
    }

    /// At `.startElement`: the value of the attribute with this qualified name, or `nil`.
    public func attribute(_ qualifiedName: StaticString) -> XMLBytes? {
        for attribute in attributes where attribute.name == qualifiedName { return attribute.value }
        return nil
    }

    /// At `.startElement`: the value of the first attribute with this local name (any prefix), or `nil`.
    public func attribute(localName: StaticString) -> XMLBytes? {
        for attribute in attributes where attribute.localName == localName { return attribute.value }
        return nil
    }

    /// At `.text`: this event's character data, decoded.
    public var characters: XMLBytes {
        XMLBytes(base: state.pointee.charactersBase, count: state.pointee.charactersCount)
    }

    /// The character data since the last tag, decoded: at the `.endElement` of a leaf such as
    /// `<ele>12.5</ele>` its whole content ("12.5"), however many `.text` events it came in.
    /// Empty when `collectsText` is off.
    public var text: XMLBytes { state.pointee.text.bytes }

    /// Whether character data is collected into `text`. Turn it off while reading a huge text
    /// from `.text` events (a KML `coordinates` of a whole journey) to keep memory flat.
    public var collectsText: Bool {
        get { state.pointee.collectsText }
        set { state.pointee.collectsText = newValue }
    }

    /// The depth of the current element: 1 for the root element at its `.startElement`, its
    /// `.endElement` and for text directly inside it; 0 before and after it.
    public var depth: Int { state.pointee.elements.depth + (event == .endElement ? 1 : 0) }

    /// The qualified names of the open elements, outermost first (allocates: for messages).
    public var openElementNames: [String] { state.pointee.elements.allNames }

    /// Where the current event starts in the original bytes: the `<` of a tag, the first byte of
    /// a text. Lines are counted lazily, so asking costs only the bytes not yet counted.
    public var eventPosition: SourcePosition {
        state.pointee.input.position(ofIndex: state.pointee.eventStart)
    }

    /// Bytes of the original input read so far, for a progress bar (see `sourceSizeBytes`).
    public var consumedByteCount: Int { state.pointee.input.originalBytesRead }

    /// The read buffer's current size in bytes: the configured size unless a tag longer than it
    /// made it grow. Memory does not depend on the input's size.
    public var bufferCapacityBytes: Int { state.pointee.input.capacity }


    /// At `.startElement`: reads past the element's content and its end event (elsewhere: past
    /// the end of the element that contains the current event).
    /// - Throws: as `next()`.
    public func skipElement() throws {
        let target = state.pointee.elements.depth - 1
        while state.pointee.elements.depth > target {
            guard try next() != nil else { return }
        }
    }
}
