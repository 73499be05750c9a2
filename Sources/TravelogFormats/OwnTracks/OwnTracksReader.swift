/// Reads OwnTracks location history: the Recorder's monthly `.rec` logs, and JSON files of
/// OwnTracks messages as the apps send them and the Recorder exports them.
///
/// The layout is chosen from the first byte that is not white space (after a byte-order mark):
/// - `{` or `[`: **JSON** — one message object, an array of them, several objects one per line, or
///   an export whose `locations` (`ocat`) or `data` (the Recorder's `/api/0/locations`) member is
///   an array of them. A document that is not well-formed throws: nothing of it is stored.
/// - anything else: a **Recorder log** (`rec/<user>/<device>/YYYY-MM.rec`), one message per line:
///   `YYYY-MM-DDTHH:MM:SSZ`, a TAB (spaces in old files), the relative topic padded to 18
///   characters, a TAB, the message as one line of JSON. The time of a fix is its `tst`, never the
///   first column (old Recorders wrote the time they received the message there).
///   A line whose JSON is broken (a crash while writing, a disk that filled up) is a `.rejected`
///   record at the line's first bad byte, and reading goes on: a `.rec` file is an append-only log
///   of a month, and one damaged line must not cost the other thousands. Blank lines are ignored.
///
/// Messages (see `OwnTracksMessage`): a `location` is a fix of track 0, segment 0; every other
/// `_type` (`transition` enter/leave events, `waypoint(s)` region definitions, `lwt`, `card`,
/// `cmd`, `configuration`, `encrypted`, `status`, `steps`…) is not a location: skipped and counted
/// in `skipped`. A message without `_type`, or a location without `lat`, `lon` or a usable `tst`,
/// is rejected.
///
/// - Complexity: O(n) in the input; memory O(block + the longest line) for a log, O(parser window
///   + one message) for JSON.
public final class OwnTracksReader: LocationFileReader {
    /// Why a message was skipped rather than read or rejected.
    public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
        /// A message that is not a location, by its `_type`.
        case message(type: String)

        public var description: String {
            switch self {
            case .message(let type): "OwnTracks '\(type)' message (not a location)"
            }
        }
    }

    private enum Layout { case undecided, recorderLog, json }

    private enum Stage {
        case topLevel
        /// Inside a top-level object, between members.
        case object
        /// Inside an array of messages, at the top level or in an export's `locations`/`data`.
        case messages(topLevel: Bool)
    }

    /// Bytes looked at, at most, to tell JSON from a log.
    static let layoutPrefixLimitBytes = 64 * 1024

    private var layout = Layout.undecided
    private var source: (any ByteSource)?
    private let blockSizeBytes: Int
    private var lines: LineReader?
    private var parser = JSONParser(bytes: [])
    private var stage = Stage.topLevel
    private var topMessage = OwnTracksMessage(start: SourcePosition(byteOffset: 0, line: 1, column: 1))
    private var topHasMessageArray = false

    /// How many messages of each kind were skipped so far.
    public private(set) var skipped: [SkipReason: Int] = [:]

    public var skippedRecords: [String: Int] {
        Dictionary(skipped.map { ($0.key.description, $0.value) }, uniquingKeysWith: +)
    }

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - blockSizeBytes: how much to read from the source at a time.
    public init(source: any ByteSource, blockSizeBytes: Int = 1 << 20) {
        self.source = source
        self.blockSizeBytes = max(16, blockSizeBytes)
    }

    public var bytesConsumed: Int {
        switch layout {
        case .undecided: 0
        case .recorderLog: lines?.bytesConsumed ?? 0
        case .json: parser.bytesConsumed
        }
    }

    /// The next record, or `nil` at the end of the input.
    /// - Throws: for a JSON file, `FormatError.truncated`, `.unexpected` or `.invalidEncoding` where
    ///   it is not well-formed, `.unexpected` for a top-level value that is not an object or an
    ///   array; for a log, only what the source throws.
    public func next() throws(FormatError) -> FormatRecord? {
        if let source = source.take() { try chooseLayout(source) }
        while true {
            let outcome: OwnTracksMessage.Outcome?
            switch layout {
            case .undecided: return nil
            case .recorderLog: outcome = try nextLogOutcome()
            case .json:
                do {
                    outcome = try nextJSONOutcome()
                } catch {
                    throw FormatError(json: error)
                }
            }
            switch outcome {
            case .record(let record)?: return record
            case .skip(let type)?: skipped[.message(type: type), default: 0] += 1
            case nil: return nil
            }
        }
    }

    /// Looks at the first significant byte, then sets up the reader for the whole input.
    private func chooseLayout(_ source: any ByteSource) throws(FormatError) {
        var source = source
        var prefix: [UInt8] = []
        var significant: UInt8?
        while significant == nil, prefix.count < Self.layoutPrefixLimitBytes {
            let chunk = try source.readBytes(upTo: 4096)
            if chunk.isEmpty { break }
            prefix += chunk
            let start = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            significant = prefix[start...].first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        }
        let replay = PrefixedByteSource(prefix: prefix, rest: source)
        if significant == UInt8(ascii: "{") || significant == UInt8(ascii: "[") {
            parser = JSONParser(source: replay, options: JSONParser.Options(allowsMultipleTopLevelValues: true,
                                                                            blockSizeBytes: blockSizeBytes))
            layout = .json
        } else {
            lines = LineReader(source: replay, blockSizeBytes: blockSizeBytes)
            layout = .recorderLog
        }
    }
}

// MARK: Recorder logs

extension OwnTracksReader {
    private func nextLogOutcome() throws(FormatError) -> OwnTracksMessage.Outcome? {
        while let line = try lines?.next() {
            if let outcome = Self.outcome(ofLogLine: line) { return outcome }
        }
        return nil
    }

    /// What one line of a `.rec` file gives; nil for a blank line.
    static func outcome(ofLogLine line: LineReader.Line) -> OwnTracksMessage.Outcome? {
        let bytes = line.bytes
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        guard var index = bytes.firstIndex(where: { !isBlank($0) }) else { return nil }
        // The first column (a time the message is not read by), then the topic, then the JSON.
        while index < bytes.count, !isBlank(bytes[index]) { index += 1 }
        guard let jsonStart = bytes[index...].firstIndex(of: UInt8(ascii: "{")) else {
            return .record(.rejected(RecordRejection(position: line.position(atColumnIndex: index),
                                                     reason: .missingField("the message's JSON"))))
        }
        let shift = PositionShift(byteOffset: line.byteOffset + jsonStart, line: line.number, columnOffset: jsonStart)
        var parser = JSONParser(bytes: Array(bytes[jsonStart...]))
        do {
            try parser.expect(.objectStart)
            let message = try OwnTracksMessage.read(from: &parser, start: shift(parser.tokenPosition), shift: shift)
            _ = try parser.next()  // the end of the line, or a syntax error for anything after the object
            return message.outcome()
        } catch let error as JSONSyntaxError {
            return .record(.rejected(RecordRejection(position: shift(error.position), reason: .invalidJSON(error.reason))))
        } catch {
            // The parser reads from memory and the line starts with '{': nothing else can be thrown.
            return .record(.rejected(RecordRejection(position: shift(parser.tokenPosition),
                                                     reason: .invalidValue(field: "message", value: "\(error)"))))
        }
    }
}

// MARK: JSON files

extension OwnTracksReader {
    private func nextJSONOutcome() throws -> OwnTracksMessage.Outcome? {
        while true {
            switch stage {
            case .topLevel:
                let event = try parser.next()
                let start = parser.tokenPosition
                switch event {
                case nil:
                    return nil
                case .objectStart?:
                    topMessage = OwnTracksMessage(start: start)
                    topHasMessageArray = false
                    stage = .object
                case .arrayStart?:
                    stage = .messages(topLevel: true)
                default:
                    throw FormatError.unexpected(start, expected: "an OwnTracks message (a JSON object) or an array of them",
                                                 found: FormatError.describe(event))
                }
            case .object:
                guard try parser.nextKey() else {
                    stage = .topLevel
                    if topHasMessageArray { continue }
                    return topMessage.outcome()
                }
                if parser.stringEquals("locations") || parser.stringEquals("data") {
                    let event = try parser.next()
                    if event == .arrayStart {
                        topHasMessageArray = true
                        stage = .messages(topLevel: false)
                    } else if event == .objectStart {
                        try parser.skipToContainerEnd()
                    }
                } else if try !topMessage.readMember(from: &parser, shift: .identity) {
                    try parser.skipValue()
                }
            case .messages(let topLevel):
                guard let event = try parser.nextElement() else {
                    stage = topLevel ? .topLevel : .object
                    continue
                }
                let start = parser.tokenPosition
                guard event == .objectStart else {
                    let error = try parser.valueError(for: event)
                    return .record(.rejected(RecordRejection(position: error.position,
                                                             reason: .invalidValue(field: "message", value: error.found))))
                }
                return try OwnTracksMessage.read(from: &parser, start: start, shift: .identity).outcome()
            }
        }
    }
}
