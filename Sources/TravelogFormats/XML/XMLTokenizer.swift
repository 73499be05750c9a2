/// The state machine behind `XMLPullParser`: a struct so that its hot loops mutate plain stored
/// properties (no class exclusivity checks), owned by the parser object that frees its memory.
///
/// Grammar: XML 1.0 (Fifth Edition) §2–4, without DTD processing: the DOCTYPE declaration is
/// skipped, entities other than the five predefined ones are errors, names are not checked
/// against the Unicode name classes and UTF-8 input is not validated.
struct XMLTokenizer {
    enum Phase {
        case prolog, content, epilog, finished
    }

    var input: XMLInputBuffer
    /// `XMLCharacterClass.table`, loaded once (a global costs a lazy-initialisation check per use).
    let characterClasses = XMLCharacterClass.table
    let skipsWhitespaceText: Bool
    var collectsText: Bool
    let maximumTokenBytes: Int

    /// The next byte to read in `input.bytes`.
    var cursor = 0
    var phase = Phase.prolog
    var sawDoctype = false
    /// A CDATA section continues: the last event was a part of it.
    var isInCDATA = false
    /// The last start tag was self-closing: its end event comes next.
    var isEndElementPending = false
    /// The last event was a tag: the text collected so far is over.
    var isTextResetPending = false

    /// The error that stopped parsing, thrown again by every later call.
    var failure: (any Error)?

    // The current event.
    var event: XMLEvent?
    var eventStart = 0
    var nameStart = 0
    var nameCount = 0
    var localNameOffset = 0
    var charactersBase: UnsafePointer<UInt8>?
    var charactersCount = 0
    var attributes = XMLAttributeSlots()
    /// Decoded attribute values and text of the current event.
    var scratch = XMLGrowableBytes(capacity: 1024)
    var elements = XMLElementStack()
    var text = XMLTextAccumulator()

    /// - Parameter input: the opened input (its encoding detected): everything that can fail
    ///   before parsing starts has happened, so nothing allocated here can leak.
    init(input: XMLInputBuffer, options: XMLParserOptions) {
        self.input = input
        skipsWhitespaceText = options.skipsWhitespaceText
        collectsText = options.collectsText
        maximumTokenBytes = options.maximumTokenBytes
    }

    func deallocate() {
        input.deallocate()
        attributes.deallocate()
        scratch.deallocate()
        elements.deallocate()
        text.deallocate()
    }

    /// Reads up to the next event; `nil` once the whole document has been read and found complete.
    mutating func next() throws -> XMLEvent? {
        if isTextResetPending {
            isTextResetPending = false
            text.reset()
        }
        if isEndElementPending {
            isEndElementPending = false
            closeElement()
            return .endElement
        }
        scratch.count = 0
        charactersBase = nil
        charactersCount = 0
        if isInCDATA, let event = try continueCDATA() { return event }
        while true {
            if cursor == input.end {
                if input.isExhausted { return try endOfInput() }
                cursor -= try refill(keeping: cursor)
                continue
            }
            let b = input.bytes
            if b[cursor] != UInt8(ascii: "<"), phase == .content, skipsWhitespaceText {
                // Fast path for indentation between tags: skip it in one scan when a tag follows.
                let index = skipWhitespace(from: cursor)
                if b[index] == UInt8(ascii: "<"), index < input.end { cursor = index }
            }
            if b[cursor] == UInt8(ascii: "<") {
                if let event = try markup() { return event }
            } else if phase == .content {
                if let event = try characterData() { return event }
            } else {
                try skipWhitespaceOutsideRoot()
            }
        }
    }

    /// Pops the element just ended.
    @inline(__always)
    mutating func closeElement() {
        elements.pop()
        if elements.depth == 0 { phase = .epilog }
        isTextResetPending = true
    }

    /// The whole input has been read: fine after the root element, an error anywhere else.
    private mutating func endOfInput() throws -> XMLEvent? {
        switch phase {
        case .prolog: throw fail(.noRootElement, at: input.end)
        case .content: throw unexpectedEnd(inside: nil)
        case .epilog, .finished:
            phase = .finished
            return nil
        }
    }

    /// Dispatches on the byte after `<` at `cursor`. `nil`: markup that reports nothing.
    @inline(__always)
    private mutating func markup() throws -> XMLEvent? {
        guard try require(2) else { throw unexpectedEnd(inside: .startTag) }
        switch input.bytes[cursor + 1] {
        case UInt8(ascii: "/"): return try endTag()
        case UInt8(ascii: "?"):
            try skipProcessingInstruction()
            return nil
        case UInt8(ascii: "!"): return try markupDeclaration()
        default: return try startTag()
        }
    }

    /// `<!--`, `<![CDATA[` or `<!DOCTYPE` at `cursor`.
    private mutating func markupDeclaration() throws -> XMLEvent? {
        _ = try require(9)
        let available = input.end - cursor
        let b = input.bytes + cursor
        func matches(_ literal: StaticString) -> Bool {
            literal.utf8CodeUnitCount <= available && XMLBytes(base: b, count: literal.utf8CodeUnitCount) == literal
        }
        if matches("<!--") {
            try skipComment()
            return nil
        }
        if matches("<![CDATA[") {
            guard phase == .content else { throw fail(.cdataOutsideRootElement, at: cursor) }
            cursor += 9
            isInCDATA = true
            return try continueCDATA()
        }
        if matches("<!DOCTYPE") {
            guard phase == .prolog, !sawDoctype else { throw fail(.misplacedDoctype, at: cursor) }
            try skipDoctype()
            return nil
        }
        // Report the first byte that differs from every possible declaration, or the end.
        var index = 2
        let candidates: [StaticString] = ["<!--", "<![CDATA[", "<!DOCTYPE"]
        while index < available, candidates.contains(where: { literal in
            index < literal.utf8CodeUnitCount && XMLBytes(base: b, count: index + 1).elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: index + 1))
        }) { index += 1 }
        guard index < available else { throw unexpectedEnd(inside: nil) }
        throw fail(.unexpectedByte(found: b[index], expected: .markupDeclaration), at: cursor + index)
    }

    /// The index of the first non-whitespace byte from `start` (the sentinel stops it). Runs of
    /// eight spaces, as in indentation, are skipped a word at a time (the buffer has 8 bytes of
    /// padding after the sentinel, and a word holding the sentinel is never all spaces).
    @inline(__always)
    func skipWhitespace(from start: Int) -> Int {
        let b = input.bytes
        let spaces: UInt64 = 0x2020_2020_2020_2020
        var index = start
        while true {
            if UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self) == spaces {
                index &+= 8
                continue
            }
            guard characterClasses[Int(b[index])] & XMLCharacterClass.whitespace != 0 else { return index }
            index &+= 1
        }
    }

    /// Makes `count` bytes available at `cursor`, discarding what is before it; `false` if the
    /// input ends first.
    @inline(__always)
    mutating func require(_ count: Int) throws -> Bool {
        while input.end - cursor < count {
            if input.isExhausted { return false }
            cursor -= try refill(keeping: cursor)
        }
        return true
    }

    /// Refills the input buffer, first copying collected text that points into it.
    mutating func refill(keeping keep: Int) throws -> Int {
        text.unpin()
        return try input.refill(keeping: keep)
    }

    /// An error at buffer index `index`.
    mutating func fail(_ kind: XMLSyntaxError.Kind, at index: Int) -> XMLSyntaxError {
        XMLSyntaxError(kind, at: input.position(ofIndex: index))
    }

    /// The input ended inside `construct` (or between tags).
    mutating func unexpectedEnd(inside construct: XMLSyntaxError.Construct?) -> XMLSyntaxError {
        fail(.unexpectedEndOfInput(inside: construct, openElements: elements.allNames), at: input.end)
    }
}
