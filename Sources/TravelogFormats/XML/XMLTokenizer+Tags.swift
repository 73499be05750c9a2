extension XMLTokenizer {
    /// A start tag at `cursor`: scanned (refilling and rescanning while incomplete), then its
    /// attribute values decoded and checked, and its name pushed.
    @inline(__always)
    mutating func startTag() throws -> XMLEvent? {
        var tagEnd = try scanStartTag()
        while tagEnd < 0 {
            if input.isExhausted { throw unexpectedEnd(inside: .startTag) }
            cursor -= try refill(keeping: cursor)
            tagEnd = try scanStartTag()
        }
        let b = input.bytes
        if phase == .epilog || phase == .finished {
            throw fail(.elementAfterRootElement(name: XMLBytes(base: b + nameStart, count: nameCount).string), at: cursor)
        }
        if attributes.count > 0 { try finishAttributes() }
        localNameOffset = 0
        var index = 0
        while index < nameCount - 1 {
            if b[nameStart + index] == UInt8(ascii: ":") {
                localNameOffset = index + 1
                break
            }
            index += 1
        }
        elements.push(b + nameStart, count: nameCount, localNameOffset: localNameOffset)
        phase = .content
        eventStart = cursor
        cursor = tagEnd
        isTextResetPending = true
        return .startElement
    }

    /// Scans the start tag at `cursor`; returns the index after its `>`, or -1 if the buffer ends
    /// first. Sets `nameStart`, `nameCount`, `attributes` and `isEndElementPending`.
    /// - Complexity: O(tag length), one table lookup per byte, no bounds checks (sentinel `<`).
    private mutating func scanStartTag() throws -> Int {
        let b = input.bytes
        let end = input.end
        let table = characterClasses
        let isName = XMLCharacterClass.name
        let isSpace = XMLCharacterClass.whitespace
        var i = cursor + 1
        guard table[Int(b[i])] & XMLCharacterClass.nameStart != 0 else {
            if i == end { return -1 }
            throw fail(.unexpectedByte(found: b[i], expected: .elementName), at: i)
        }
        i += 1
        while Self.isLetter(b[i]) || table[Int(b[i])] & isName != 0 { i &+= 1 }
        if i == end { return -1 }
        nameStart = cursor + 1
        nameCount = i - nameStart
        attributes.removeAll()
        while true {
            let afterPrevious = i
            while table[Int(b[i])] & isSpace != 0 { i &+= 1 }
            let byte = b[i]
            if byte == UInt8(ascii: ">") {
                isEndElementPending = false
                return i + 1
            }
            if byte == UInt8(ascii: "/") {
                if i + 1 >= end { return -1 }
                guard b[i + 1] == UInt8(ascii: ">") else {
                    throw fail(.unexpectedByte(found: b[i + 1], expected: .tagEnd), at: i + 1)
                }
                isEndElementPending = true
                return i + 2
            }
            if i == end { return -1 }
            guard i > afterPrevious else { throw fail(.unexpectedByte(found: byte, expected: .whitespaceOrTagEnd), at: i) }
            guard table[Int(byte)] & XMLCharacterClass.nameStart != 0 else {
                throw fail(.unexpectedByte(found: byte, expected: .attributeName), at: i)
            }
            let attributeNameStart = i
            i += 1
            while Self.isLetter(b[i]) || table[Int(b[i])] & isName != 0 { i &+= 1 }
            let attributeNameEnd = i
            while table[Int(b[i])] & isSpace != 0 { i &+= 1 }
            if i == end { return -1 }
            guard b[i] == UInt8(ascii: "=") else { throw fail(.unexpectedByte(found: b[i], expected: .equalsSign), at: i) }
            i += 1
            while table[Int(b[i])] & isSpace != 0 { i &+= 1 }
            if i == end { return -1 }
            let quote = b[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw fail(.unexpectedByte(found: quote, expected: .quote), at: i)
            }
            i += 1
            let valueStart = i
            var needsDecoding = false
            while true {
                while table[Int(b[i])] & XMLCharacterClass.attributeStop == 0 { i &+= 1 }
                let stop = b[i]
                if stop == quote { break }
                if stop == UInt8(ascii: "<") {
                    if i == end { return -1 }
                    throw fail(.lessThanInAttributeValue, at: i)
                }
                if stop != UInt8(ascii: "\"") && stop != UInt8(ascii: "'") { needsDecoding = true }
                i += 1
            }
            attributes.append(.init(
                nameStart: attributeNameStart, nameCount: attributeNameEnd - attributeNameStart,
                valueStart: valueStart, valueCount: i - valueStart, needsDecoding: needsDecoding
            ))
            i += 1
        }
    }

    /// Whether `byte` is an ASCII letter: the common name byte, told without a table load.
    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    /// Decodes attribute values that need it (into scratch) and rejects duplicate names.
    private mutating func finishAttributes() throws {
        let b = input.bytes
        let slots = attributes.slots
        for index in 0..<attributes.count where slots[index].needsDecoding {
            let slot = slots[index]
            let destination = scratch.reserve(slot.valueCount)
            do {
                let decoded = try XMLReferenceDecoder.decode(b + slot.valueStart, count: slot.valueCount, into: destination, mode: .attribute)
                slots[index].valueStart = scratch.count
                slots[index].valueCount = decoded
                slots[index].isInScratch = true
                scratch.count += decoded
            } catch {
                throw fail(error.kind, at: slot.valueStart + error.offset)
            }
        }
        guard attributes.count > 1 else { return }
        func name(_ index: Int) -> XMLBytes { XMLBytes(base: b + slots[index].nameStart, count: slots[index].nameCount) }
        if attributes.count <= 16 {
            for later in 1..<attributes.count {
                for earlier in 0..<later where name(earlier) == name(later) {
                    throw fail(.duplicateAttribute(name: name(later).string), at: slots[later].nameStart)
                }
            }
        } else {
            var seen: [[UInt8]: Int] = [:]
            for index in 0..<attributes.count {
                if seen.updateValue(index, forKey: Array(name(index))) != nil {
                    throw fail(.duplicateAttribute(name: name(index).string), at: slots[index].nameStart)
                }
            }
        }
    }

    /// An end tag at `cursor`, matched against the innermost open element.
    mutating func endTag() throws -> XMLEvent? {
        // Fast path: the innermost open element's name, then `>`, all in the buffer.
        let expected = elements.top
        let b = input.bytes
        if elements.depth > 0, input.end - cursor > expected.count + 2,
           b[cursor + 2 + expected.count] == UInt8(ascii: ">"),
           XMLBytes.equal(b + cursor + 2, expected.base.unsafelyUnwrapped, count: expected.count) {
            nameStart = cursor + 2
            nameCount = expected.count
            localNameOffset = elements.topLocalNameOffset
            closeElement()
            eventStart = cursor
            cursor += expected.count + 3
            return .endElement
        }
        var tagEnd = try scanEndTag()
        while tagEnd < 0 {
            if input.isExhausted { throw unexpectedEnd(inside: .endTag) }
            cursor -= try refill(keeping: cursor)
            tagEnd = try scanEndTag()
        }
        let found = XMLBytes(base: input.bytes + nameStart, count: nameCount)
        guard elements.depth > 0 else { throw fail(.unmatchedEndTag(found: found.string), at: cursor) }
        guard elements.top == found else {
            throw fail(.mismatchedEndTag(expected: elements.top.string, found: found.string), at: cursor)
        }
        localNameOffset = elements.topLocalNameOffset
        closeElement()
        eventStart = cursor
        cursor = tagEnd
        return .endElement
    }

    /// Scans `</name S? >` at `cursor`; returns the index after `>` or -1 if the buffer ends first.
    private mutating func scanEndTag() throws -> Int {
        let b = input.bytes
        let end = input.end
        let table = characterClasses
        var i = cursor + 2
        guard table[Int(b[i])] & XMLCharacterClass.nameStart != 0 else {
            if i == end { return -1 }
            throw fail(.unexpectedByte(found: b[i], expected: .elementName), at: i)
        }
        i += 1
        while table[Int(b[i])] & XMLCharacterClass.name != 0 { i &+= 1 }
        nameStart = cursor + 2
        nameCount = i - nameStart
        while table[Int(b[i])] & XMLCharacterClass.whitespace != 0 { i &+= 1 }
        if i == end { return -1 }
        guard b[i] == UInt8(ascii: ">") else { throw fail(.unexpectedByte(found: b[i], expected: .tagEnd), at: i) }
        return i + 1
    }
}
