import TravelogCore

/// The writer of every export format: one state machine (document, track and segment opened and
/// closed in the right order, tracks and segments opened lazily with their first location) around
/// the format's `LocationDocumentEncoder`. `FileFormat.makeWriter` hands one out.
final class DocumentWriter<Encoder: LocationDocumentEncoder>: LocationFileWriter {
    private enum Phase { case notBegun, writing, finished }

    private var encoder: Encoder
    private let output: OutputBuffer
    private let document: ExportDocument
    private var phase = Phase.notBegun
    private var trackOpen = false
    private var segmentOpen = false
    private var nextTrackName: String?
    private(set) var locationsWritten = 0

    let format: FileFormat

    init(format: FileFormat, encoder: Encoder, sink: any ByteSink, document: ExportDocument) {
        self.format = format
        self.encoder = encoder
        self.output = OutputBuffer(sink: sink)
        self.document = document
    }

    var bytesWritten: Int { output.totalBytes }

    func begin() throws(FormatError) {
        precondition(phase != .finished, "a LocationFileWriter takes nothing after finish()")
        guard phase == .notBegun else { return }
        encoder.writeHeader(document, to: output)
        phase = .writing
        try output.drainIfNeeded()
    }

    func startTrack(named name: String?) throws(FormatError) {
        try begin()
        closeTrack()
        nextTrackName = name
    }

    func startSegment() throws(FormatError) {
        try begin()
        closeSegment()
    }

    func write(_ batch: [Location]) throws(FormatError) {
        try begin()
        for location in batch {
            if !segmentOpen { openSegment() }
            encoder.write(location, to: output)
            try output.drainIfNeeded()
        }
        locationsWritten += batch.count
    }

    func flush() throws(FormatError) {
        try output.drain()
        try output.sink.flush()
    }

    func finish() throws(FormatError) {
        try begin()
        closeTrack()
        encoder.writeFooter(to: output)
        phase = .finished
        try output.drain()
        try output.sink.flush()
    }

    private func openSegment() {
        if !trackOpen {
            encoder.writeTrackStart(name: nextTrackName, to: output)
            trackOpen = true
        }
        encoder.writeSegmentStart(to: output)
        segmentOpen = true
    }

    private func closeSegment() {
        guard segmentOpen else { return }
        encoder.writeSegmentEnd(to: output)
        segmentOpen = false
    }

    private func closeTrack() {
        closeSegment()
        guard trackOpen else { return }
        encoder.writeTrackEnd(to: output)
        trackOpen = false
    }
}
