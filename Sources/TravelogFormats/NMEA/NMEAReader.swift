import TravelogCore

/// Reads an NMEA 0183 log (a receiver's serial output, a gpsd or GPSBabel capture) as track points.
///
/// Pipeline: lines (`LineReader`: CR/LF, BOM, UTF-16) → sentences (`NMEASentence`: `$`/`!`,
/// any talker, `*hh` checksum) → decoded GGA, RMC, GLL, VTG, GSA, GST, GNS and ZDA (`NMEAMessage`)
/// → one merged fix per epoch (`NMEAFixAssembler`) → dates (`NMEAEpochDater`) → one
/// `.track(track: 0, segment:)` point per epoch with a fix. A new segment starts after the fix was
/// lost. Epochs without a valid position (RMC `V`, GGA quality 0, GSA mode 1) give no point.
///
/// Lines that are not NMEA (`#` comments, gpsd JSON, binary noise) and sentence types it does not
/// use (GSV, proprietary `$P…`) are skipped. A sentence whose checksum does not match, or whose
/// time or position is malformed, is a `.rejected` record; a missing checksum is accepted.
/// Fixes waiting for a date (see `NMEAEpochDater`) come out when it is found, after records that
/// followed them in the file; those never dated are `.untimed` points.
public struct NMEAReader: LocationFileReader {
    /// How to read a log.
    public struct Options: Hashable, Sendable {
        /// How many fixes may wait for a date by default: a day at 1 Hz and more.
        public static let defaultMaximumHeldFixes = 100_000

        /// The UTC date of the log's first timed sentence, for a log whose sentences carry no date
        /// (GGA only); later times that go back past midnight move to the next day, and the log's
        /// own RMC or ZDA dates take over when they come. What `travelog import --date` sets.
        public var date: CivilDate?
        /// Dates from the log before this one are taken as a GPS week-number rollover and moved
        /// forward by 1024 weeks; `nil` (the default, as gpsd) keeps them as written.
        public var gpsWeekRolloverCutoff: CivilDate?
        /// The 1σ range error, metres, that turns a DOP into an accuracy when there is no GST.
        public var userEquivalentRangeErrorMeters: Double
        /// How many fixes may wait for the first date before the oldest is given up as untimed.
        public var maximumHeldFixes: Int

        /// - Precondition: `userEquivalentRangeErrorMeters` is finite and positive.
        public init(date: CivilDate? = nil, gpsWeekRolloverCutoff: CivilDate? = nil,
                    userEquivalentRangeErrorMeters: Double = NMEAEpoch.typicalUserEquivalentRangeErrorMeters,
                    maximumHeldFixes: Int = defaultMaximumHeldFixes) {
            precondition(userEquivalentRangeErrorMeters.isFinite && userEquivalentRangeErrorMeters > 0,
                         "the user-equivalent range error must be a positive number of metres")
            self.date = date
            self.gpsWeekRolloverCutoff = gpsWeekRolloverCutoff
            self.userEquivalentRangeErrorMeters = userEquivalentRangeErrorMeters
            self.maximumHeldFixes = max(0, maximumHeldFixes)
        }
    }

    public let options: Options
    private var lines: LineReader
    private var assembler = NMEAFixAssembler()
    private var dater: NMEAEpochDater
    /// Records found but not handed out yet; `queue[queueStart...]` are waiting.
    private var queue: [FormatRecord] = []
    private var queueStart = 0
    private var finished = false

    /// - Parameters:
    ///   - source: the log's bytes.
    ///   - options: dates and accuracy model.
    public init(source: any ByteSource, options: Options = Options()) {
        self.options = options
        self.lines = LineReader(source: source)
        self.dater = NMEAEpochDater(initialDate: options.date, gpsWeekRolloverCutoff: options.gpsWeekRolloverCutoff,
                                    maximumHeldFixes: options.maximumHeldFixes)
    }

    public var bytesConsumed: Int { lines.bytesConsumed }

    public mutating func next() throws(FormatError) -> FormatRecord? {
        while queueStart == queue.count {
            if finished { return nil }
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
            if let line = try lines.next() {
                read(line)
            } else {
                finished = true
                if let epoch = assembler.finish() { date(epoch) }
                emit(dater.finish())
            }
        }
        defer { queueStart += 1 }
        return queue[queueStart]
    }

    /// Handles every sentence of a line (usually one; more when sentences are glued together).
    private mutating func read(_ line: LineReader.Line) {
        var start: Int? = 0
        while let from = start {
            let (result, sentenceStart, next) = NMEASentence.parse(line.bytes, from: from)
            start = next
            switch result {
            case .notNMEA:
                return
            case .badChecksum(let expected, let found):
                reject(line, at: sentenceStart, .badChecksum(expected: expected, found: found))
            case .malformedChecksum(let written):
                reject(line, at: sentenceStart, .invalidValue(field: "checksum", value: written))
            case .sentence(let sentence):
                do {
                    guard let message = try NMEAMessage(sentence) else { continue }
                    if let epoch = assembler.ingest(message) { date(epoch) }
                } catch {
                    reject(line, at: sentenceStart, error.reason)
                }
            }
        }
    }

    private mutating func reject(_ line: LineReader.Line, at index: Int, _ reason: RecordRejection.Reason) {
        queue.append(.rejected(RecordRejection(position: line.position(atColumnIndex: index), reason: reason)))
    }

    private mutating func date(_ epoch: NMEAEpoch) {
        emit(dater.ingest(epoch))
    }

    private mutating func emit(_ outputs: [NMEAEpochDater.Output]) {
        for output in outputs {
            guard let position = output.epoch.position else { continue }
            let kind = FormatPoint.Kind.track(track: 0, segment: output.epoch.segment)
            if let date = output.date,
               let location = output.epoch.location(on: date, userEquivalentRangeErrorMeters: options.userEquivalentRangeErrorMeters) {
                queue.append(.point(FormatPoint(kind: kind, position: .fix(location))))
            } else {
                queue.append(.point(FormatPoint(kind: kind, position: .untimed(position.coordinate,
                                                                               altitudeMeters: output.epoch.altitudeMSLMeters))))
            }
        }
    }
}
