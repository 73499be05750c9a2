import TravelogCore

/// A streaming writer of one location-history format: it takes locations batch by batch, in the
/// order they should appear, and writes them to a `ByteSink` as it goes, so an export of any size
/// needs only the memory of one batch and one output buffer.
///
/// Call order: `begin()` (optional: any other call begins first), then any sequence of
/// `startTrack(named:)`, `startSegment()` and `write(_:)`, then `finish()` once. Tracks and
/// segments are opened with their first location, so one that receives no location leaves nothing
/// in the file, and an export without locations is a valid empty document. Formats without tracks
/// (GeoJSON, CSV) keep the locations and drop the structure (GeoJSON keeps the track's name).
public protocol LocationFileWriter: AnyObject {
    /// The format written.
    var format: FileFormat { get }
    /// Locations written so far.
    var locationsWritten: Int { get }
    /// Bytes produced so far (handed to the sink or still buffered).
    var bytesWritten: Int { get }

    /// Writes the start of the document.
    func begin() throws(FormatError)

    /// Ends the current track, if any; the next location opens a new track called `name` (a device,
    /// a day, a trip; `nil` for none).
    func startTrack(named name: String?) throws(FormatError)

    /// Ends the current segment, if any, so the next location starts a new one inside the current
    /// track: where there was a gap in recording, or where the caller wants the line broken.
    func startSegment() throws(FormatError)

    /// Writes `batch` in order into the current segment.
    /// - Throws: `FormatError.cannotWrite` when the sink refuses the bytes.
    func write(_ batch: [Location]) throws(FormatError)

    /// Closes everything still open, writes the end of the document and flushes the sink (which
    /// the caller then closes). A writer takes nothing after `finish()`.
    func finish() throws(FormatError)

    /// Hands everything written so far to the sink and flushes it, leaving the document open (a
    /// recorder that must keep its file current: `travelog track --output`).
    func flush() throws(FormatError)
}

/// What describes the whole file.
public struct ExportDocument: Hashable, Sendable {
    /// A title for the file (GPX metadata name, KML Document name); `nil` for none. GeoJSON and
    /// CSV have no place for it.
    public var name: String?
    /// The program that wrote the file (GPX `creator`).
    public var creator: String

    public init(name: String? = nil, creator: String = "Travelog") {
        self.name = name
        self.creator = creator
    }
}
