import Foundation
import TravelogCore
import TravelogFormats

/// `--output FILE.gpx`: the kept fixes written as they come with the project's GPX writer,
/// flushed after each batch so the file is current. The footer is written on a clean stop (end
/// of a log, SIGINT, SIGTERM); after a `kill -9` the file lacks it (the queue still has every fix).
/// An existing file is never overwritten: the new one gets the start time in its name.
public final class GPXRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private let sink: FileByteSink
    private let writer: any LocationFileWriter
    private var finished = false
    public let path: String

    public init(path requested: String, now: Date = Date()) throws {
        var path = requested
        if FileManager.default.fileExists(atPath: path) {
            let stamp = ISO8601TimeFormatter.string(Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)))
            let base = (requested as NSString).deletingPathExtension
            path = "\(base)-\(stamp.replacingOccurrences(of: ":", with: "")).gpx"
        }
        self.path = path
        sink = try FileByteSink(path: path)
        guard let writer = FileFormat.gpx.makeWriter(sink: sink, document: ExportDocument(name: "travelog track", creator: "Travelog")) else {
            preconditionFailure("GPX is writable")
        }
        self.writer = writer
        try writer.begin()
        try writer.startTrack(named: "travelog track")
        try writer.startSegment()
        try sink.flush()
    }

    public func write(_ locations: [Location]) throws {
        lock.lock(); defer { lock.unlock() }
        guard !finished else { return }
        try writer.write(locations)
        try writer.flush()
    }

    /// Writes the footer (once).
    public func finish() {
        lock.lock(); defer { lock.unlock() }
        guard !finished else { return }
        finished = true
        try? writer.finish()
    }
}
