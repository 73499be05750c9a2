import Foundation
import Testing
import TravelogTestSupport
import TravelogFormats

/// A JSON value, generated at random and written out with random spacing and escaping.
indirect enum GeneratedValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([GeneratedValue])
    case object([(String, GeneratedValue)])

    static func == (lhs: GeneratedValue, rhs: GeneratedValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    static let alphabet: [Character] = Array("abcXYZ019 _-\"\\/\n\t\u{1}\u{1F}é€東😀\u{10FFFF}\u{7F}")

    static func random(depth: Int, using generator: inout SplitMix64) -> GeneratedValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator))
        case 3:
            let value = Double(bitPattern: generator.next())
            return .double(value.isFinite ? value : 0.5)
        case 4: return .string(randomString(using: &generator))
        case 5:
            return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in random(depth: depth + 1, using: &generator) })
        default:
            var seen = Set<String>()
            var members: [(String, GeneratedValue)] = []
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                let key = randomString(using: &generator)
                if seen.insert(key).inserted { members.append((key, random(depth: depth + 1, using: &generator))) }
            }
            return .object(members)
        }
    }

    static func randomString(using generator: inout SplitMix64) -> String {
        String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
    }

    /// JSON text with random whitespace, and each character escaped or not at random.
    func text(using generator: inout SplitMix64) -> String {
        func space() -> String {
            ["", "", " ", "\n", "\t", "\r\n  "].randomElement(using: &generator) ?? ""
        }
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .integer(let value): return "\(value)"
        case .double(let value): return Bool.random(using: &generator) ? "\(value)" : String(format: "%.17e", value)
        case .string(let value): return Self.quoted(value, using: &generator)
        case .array(let elements):
            return "[" + space() + elements.map { $0.text(using: &generator) }.joined(separator: space() + "," + space()) + space() + "]"
        case .object(let members):
            return "{" + space() + members.map { key, value in
                Self.quoted(key, using: &generator) + space() + ":" + space() + value.text(using: &generator)
            }.joined(separator: "," + space()) + space() + "}"
        }
    }

    static func quoted(_ string: String, using generator: inout SplitMix64) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if mustEscape || Int.random(in: 0..<4, using: &generator) == 0 {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\n": result += "\\n"
                case "\t": result += "\\t"
                case "/": result += Bool.random(using: &generator) ? "\\/" : "/"
                default:
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16, uppercase: Bool.random(using: &generator))
                        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// What our parser made of a number.
    struct ParsedNumber {
        var double: Double
        var int64: Int64?
    }

    /// Builds a tree from the parser's events: `NSNull`, `Bool`, `ParsedNumber`, `String`, `[Any]`,
    /// and objects as ordered `[(String, Any)]`.
    static func read(_ parser: inout JSONParser) throws -> Any? {
        guard let event = try parser.next() else { return nil }
        return try read(event, &parser)
    }

    static func read(_ event: JSONEvent, _ parser: inout JSONParser) throws -> Any {
        switch event {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number: return ParsedNumber(double: parser.doubleValue, int64: parser.int64Value)
        case .string: return parser.stringValue
        case .arrayStart:
            var elements: [Any] = []
            while let element = try parser.nextElement() { elements.append(try read(element, &parser)) }
            return elements
        case .objectStart:
            var members: [(String, Any)] = []
            while try parser.nextKey() {
                let key = parser.stringValue
                guard let value = try read(&parser) else { throw JSONTypeMismatchError(expected: .value, found: nil, at: parser.tokenPosition) }
                members.append((key, value))
            }
            return members
        case .key, .objectEnd, .arrayEnd:
            throw JSONTypeMismatchError(expected: .value, found: event, at: parser.tokenPosition)
        }
    }

    /// Whether a tree read by our parser (`read`) or by JSONSerialization is this value.
    func matches(_ other: Any) -> Bool {
        switch self {
        case .null: return other is NSNull
        case .bool(let value): return (other as? Bool) == value
        case .integer(let value):
            if let number = other as? ParsedNumber { return number.int64 == value && number.double == Double(value) }
            return (other as? NSNumber)?.int64Value == value
        case .double(let value):
            if let number = other as? ParsedNumber { return number.double.bitPattern == value.bitPattern }
            // JSONSerialization gives an NSDecimalNumber for more than 17 significant digits, whose
            // doubleValue is not correctly rounded; its description is the exact decimal, so round that.
            if let decimal = other as? NSDecimalNumber { return Double(decimal.description)?.bitPattern == value.bitPattern }
            return (other as? NSNumber)?.doubleValue.bitPattern == value.bitPattern
        case .string(let value): return (other as? String) == value
        case .array(let elements):
            guard let others = other as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { $0.matches($1) }
        case .object(let members):
            if let ordered = other as? [(String, Any)] {
                return ordered.count == members.count && zip(members, ordered).allSatisfy { $0.0 == $1.0 && $0.1.matches($1.1) }
            }
            guard let others = other as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { key, value in others[key].map { value.matches($0) } ?? false }
        }
    }
}

@Suite("JSONParser: random documents against JSONSerialization")
struct JSONRoundTripTests {
    @Test("a random document reads back as the value it was written from, as JSONSerialization reads it (500 seeded)")
    func roundTrip() throws {
        var generator = SplitMix64(seed: 8259)
        for index in 0..<500 {
            let value = GeneratedValue.random(depth: 0, using: &generator)
            let text = value.text(using: &generator)
            let bytes = Array(text.utf8)

            var parser = JSONParser(source: MemoryByteSource(bytes, maximumChunkBytes: Int.random(in: 1...64, using: &generator)),
                                    options: smallWindow)
            let ours = try #require(try GeneratedValue.read(&parser))
            #expect(try parser.next() == nil)
            #expect(value.matches(ours), "document \(index): \(text)")

            let theirs = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            #expect(value.matches(theirs), "JSONSerialization disagrees on document \(index): \(text)")
        }
    }

    @Test("a document with one byte changed is rejected by both parsers or accepted by both (2 000 seeded)")
    func mutations() throws {
        var generator = SplitMix64(seed: 1990)
        let replacements = Array("{}[],:\"\\ 0-.eE+tfnu1".utf8) + [0x80, 0xFF, 0x0A]
        var disagreements: [String] = []
        for _ in 0..<2_000 {
            let value = GeneratedValue.random(depth: 0, using: &generator)
            var bytes = Array(value.text(using: &generator).utf8)
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes.remove(at: index)
            case 1: bytes.insert(replacements.randomElement(using: &generator) ?? 0x20, at: index)
            default: bytes[index] = replacements.randomElement(using: &generator) ?? 0x20
            }
            let ours = syntaxError(bytes)
            if case .unexpectedByte(let byte, let expected)? = ours?.reason,
               byte == UInt8(ascii: "]") && expected == .value || byte == UInt8(ascii: "}") && expected == .keyAfterComma {
                continue  // JSONSerialization on Linux accepts a trailing comma, which RFC 8259 does not.
            }
            let oursAccepts = ours == nil
            let theirsAccepts = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            if oursAccepts != theirsAccepts {
                disagreements.append("\(oursAccepts ? "ours accepts" : "ours rejects"): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        #expect(disagreements == [])
    }
}
