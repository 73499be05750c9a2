import TravelogFormats

/// An event with its payload, so that tests can compare whole event sequences.
enum JSONToken: Equatable, CustomStringConvertible {
    case objectStart, objectEnd, arrayStart, arrayEnd
    case key(String)
    case string(String)
    /// A number: its Double (compared bit for bit, so -0.0 ≠ 0.0) and its exact Int64 when integral.
    case number(Double, Int64?)
    case bool(Bool)
    case null

    /// A number that is an integer within Int64.
    static func int(_ value: Int64) -> JSONToken { .number(Double(value), value) }
    /// A number that is not an integer.
    static func double(_ value: Double) -> JSONToken { .number(value, nil) }

    static func == (lhs: JSONToken, rhs: JSONToken) -> Bool {
        switch (lhs, rhs) {
        case (.objectStart, .objectStart), (.objectEnd, .objectEnd), (.arrayStart, .arrayStart),
            (.arrayEnd, .arrayEnd), (.null, .null):
            true
        case (.key(let a), .key(let b)), (.string(let a), .string(let b)): a == b
        case (.number(let a, let x), .number(let b, let y)): a.bitPattern == b.bitPattern && x == y
        case (.bool(let a), .bool(let b)): a == b
        default: false
        }
    }

    var description: String {
        switch self {
        case .objectStart: "{"
        case .objectEnd: "}"
        case .arrayStart: "["
        case .arrayEnd: "]"
        case .key(let text): "key(\(text.debugDescription))"
        case .string(let text): "string(\(text.debugDescription))"
        case .number(let value, let integer): "number(\(value)\(integer.map { ", int \($0)" } ?? ""))"
        case .bool(let value): "\(value)"
        case .null: "null"
        }
    }
}

/// Hands out its bytes in pieces that end exactly at the given offsets, then the rest.
struct SplitSource: ByteSource {
    let bytes: [UInt8]
    var cuts: [Int]
    var offset = 0

    init(_ bytes: [UInt8], cuts: [Int]) {
        self.bytes = bytes
        self.cuts = cuts.filter { $0 > 0 && $0 < bytes.count }.sorted()
    }

    var totalByteCount: Int? { bytes.count }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        while let cut = cuts.first, cut <= offset { cuts.removeFirst() }
        let limit = cuts.first ?? bytes.count
        let count = min(buffer.count, limit - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

/// The smallest parser window, so that the tests also reach refilling, compaction and growth.
let smallWindow = JSONParser.Options(blockSizeBytes: 16)

/// Every event of a document, with payloads.
func tokens(of parser: inout JSONParser) throws -> [JSONToken] {
    var result: [JSONToken] = []
    while let event = try parser.next() {
        switch event {
        case .objectStart: result.append(.objectStart)
        case .objectEnd: result.append(.objectEnd)
        case .arrayStart: result.append(.arrayStart)
        case .arrayEnd: result.append(.arrayEnd)
        case .key: result.append(.key(parser.stringValue))
        case .string: result.append(.string(parser.stringValue))
        case .number: result.append(.number(parser.doubleValue, parser.int64Value))
        case .bool(let value): result.append(.bool(value))
        case .null: result.append(.null)
        }
    }
    return result
}

/// Every event of `bytes` read through `source`.
func tokens(of bytes: [UInt8], source: some ByteSource, options: JSONParser.Options = .init()) throws -> [JSONToken] {
    var parser = JSONParser(source: source, options: options)
    return try tokens(of: &parser)
}

/// Every event of `text`, read in one piece.
func tokens(_ text: String, options: JSONParser.Options = .init()) throws -> [JSONToken] {
    var parser = JSONParser(text: text, options: options)
    return try tokens(of: &parser)
}

/// What reading `bytes` through `source` gives: the events, or the syntax error.
enum Outcome: Equatable, CustomStringConvertible {
    case events([JSONToken])
    case failure(JSONSyntaxError)

    init(_ bytes: [UInt8], source: some ByteSource, options: JSONParser.Options = .init()) {
        do {
            self = .events(try tokens(of: bytes, source: source, options: options))
        } catch let error as JSONSyntaxError {
            self = .failure(error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    var description: String {
        switch self {
        case .events(let tokens): "\(tokens)"
        case .failure(let error): "\(error)"
        }
    }
}

/// The syntax error that reading `text` in one piece throws, if any.
func syntaxError(_ text: String, options: JSONParser.Options = .init()) -> JSONSyntaxError? {
    syntaxError(Array(text.utf8), options: options)
}

func syntaxError(_ bytes: [UInt8], options: JSONParser.Options = .init()) -> JSONSyntaxError? {
    if case .failure(let error) = Outcome(bytes, source: MemoryByteSource(bytes), options: options) { return error }
    return nil
}

