import TravelogCore

/// Reads what gpsd's clients record: `gpspipe -w` logs (one or more JSON reports per line) and
/// the `.chk` captures of gpsd's regression tests (NMEA echoed between the reports).
///
/// Every `TPV` with a 2D or 3D fix, a time and a position is a point of track 0 (see
/// `GPSDReport.TPV.location`); a TPV without a fix after fixes starts a new segment. NMEA lines
/// are passed over: the TPVs are gpsd's own decoding of them. (A `gpspipe -r` capture, NMEA with
/// only gpsd's greeting in JSON, has no TPV: `FormatDetector` reads it as NMEA.) A line that is
/// not well-formed JSON is a `.rejected` record and reading goes on.
/// - Complexity: O(n) in the input; memory one block and one line.
public struct GPSDLogReader: LocationFileReader {
    private var lines: LineReader
    private var segment = 0
    private var hadFix = false
    private var lostSinceFix = false
    private var pending: [FormatRecord] = []
    /// Reports passed over, by what they were.
    public private(set) var skippedRecords: [String: Int] = [:]

    public init(source: any ByteSource) {
        lines = LineReader(source: source)
    }

    public var bytesConsumed: Int { lines.bytesConsumed }

    public mutating func next() throws(FormatError) -> FormatRecord? {
        while pending.isEmpty {
            guard let line = try lines.next() else { return nil }
            read(line)
        }
        return pending.removeFirst()
    }

    private mutating func read(_ line: LineReader.Line) {
        guard let start = line.bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), line.bytes[start] == UInt8(ascii: "{") else { return }
        let reports: [GPSDReport]
        do {
            reports = try GPSDReport.decodeLine(Array(line.bytes[start...]))
        } catch let error as JSONSyntaxError {
            pending.append(.rejected(RecordRejection(position: line.position(atColumnIndex: start), reason: .invalidJSON(error.reason))))
            return
        } catch {
            pending.append(.rejected(RecordRejection(position: line.position(atColumnIndex: start),
                                                     reason: .invalidValue(field: "gpsd report", value: "\(error)"))))
            return
        }
        for report in reports {
            guard case .tpv(let tpv) = report else {
                skippedRecords["gpsd \(report.className) report (not a fix)", default: 0] += 1
                continue
            }
            guard let location = tpv.location else {
                if hadFix { lostSinceFix = true }
                skippedRecords["gpsd TPV report without a fix", default: 0] += 1
                continue
            }
            if lostSinceFix { segment += 1; lostSinceFix = false }
            hadFix = true
            pending.append(.point(FormatPoint(kind: .track(track: 0, segment: segment), position: .fix(location))))
        }
    }
}
