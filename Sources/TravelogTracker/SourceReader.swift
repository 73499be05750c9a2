import Foundation
import TravelogCore
import TravelogFormats
import TravelogTracking

/// What a source reports to the tracker.
public enum SourceEvent: Sendable {
    case location(Location)
    case heading(HeadingProcessor.Input)
    /// A change the user should hear about (connected, lost, reconnecting in N s).
    case state(String)
    /// A clock tick, about once a second of wall time.
    case tick(Date)
    /// A finite source (a file) has been read to its end.
    case ended
}

/// Reads a source on a thread of its own (its reads block) and hands what it finds to an
/// `AsyncStream`. A source that goes away (gpsd restarted, the USB receiver unplugged, the network
/// down) is reopened with backoff, 1 s doubling to 60 s, and each step is reported as `.state`.
public final class SourceReader: @unchecked Sendable {
    public static let initialBackoffSeconds: Double = 1
    public static let maximumBackoffSeconds: Double = 60
    /// A real-time replay waits at most this long between two fixes of a log, in seconds.
    public static let maximumReplayGapSeconds: Double = 10

    private let source: GPSSource
    private let continuation: AsyncStream<SourceEvent>.Continuation
    private var lastFixTime: Date?

    private init(source: GPSSource, continuation: AsyncStream<SourceEvent>.Continuation) {
        self.source = source
        self.continuation = continuation
    }

    /// Starts reading `source` on a new thread; events come out of the stream, oldest first.
    public static func start(_ source: GPSSource) -> AsyncStream<SourceEvent> {
        let (stream, continuation) = AsyncStream<SourceEvent>.makeStream()
        let reader = SourceReader(source: source, continuation: continuation)
        let thread = Thread { reader.run() }
        thread.name = "travelog-source"
        thread.start()
        return stream
    }

    private func run() {
        var backoff = Self.initialBackoffSeconds
        while true {
            do {
                let stream = try SourceConnector.open(source)
                continuation.yield(.state("reading \(source)"))
                let delivered = try read(stream)
                if source.isFinite {
                    continuation.yield(.ended)
                    continuation.finish()
                    return
                }
                if delivered { backoff = Self.initialBackoffSeconds }
                continuation.yield(.state("\(source) closed the connection; reconnecting in \(Int(backoff)) s"))
            } catch {
                if source.isFinite {
                    continuation.yield(.state("\(error)"))
                    continuation.yield(.ended)
                    continuation.finish()
                    return
                }
                continuation.yield(.state("\(source): \(error); reconnecting in \(Int(backoff)) s"))
            }
            Thread.sleep(forTimeInterval: backoff)
            backoff = min(Self.maximumBackoffSeconds, backoff * 2)
        }
    }

    /// Reads until the stream ends. - Returns: whether anything was read.
    private func read(_ stream: DescriptorByteSource) throws -> Bool {
        if case .gpsd = source {
            guard stream.write(Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)) else {
                throw SourceConnector.OpenError(description: "cannot send ?WATCH to \(source)")
            }
            return try readGPSD(stream)
        }
        return try readNMEA(stream)
    }

    private func readGPSD(_ stream: DescriptorByteSource) throws -> Bool {
        var lines = LineReader(source: stream)
        var delivered = false
        // gpsd reports an epoch again as more of its sentences arrive (a TPV after GGA, another after
        // RMC): one fix per time, the first, as gpxlogger keeps it.
        var lastFixTime: Date?
        while let line = try lines.next() {
            guard line.bytes.first == UInt8(ascii: "{"), let reports = try? GPSDReport.decodeLine(line.bytes) else { continue }
            delivered = true
            for report in reports {
                switch report {
                case .tpv(let tpv):
                    if let location = tpv.location, location.timestamp != lastFixTime {
                        lastFixTime = location.timestamp
                        deliver(location)
                    }
                case .att(let att):
                    let time = att.time ?? lastFixTime ?? Date()
                    if let heading = att.trueHeadingDegrees {
                        continuation.yield(.heading(.trueHeading(degrees: heading, accuracyDegrees: nil, at: time)))
                    } else if let heading = att.magneticHeadingDegrees {
                        continuation.yield(.heading(.magneticHeading(degrees: heading, accuracyDegrees: nil, at: time)))
                    }
                case .sky, .other:
                    break
                }
            }
        }
        return delivered
    }

    private func readNMEA(_ stream: DescriptorByteSource) throws -> Bool {
        var headings = NMEAHeadingTap()
        stream.tap = { [unowned self] block in
            for heading in headings.consume(block) {
                let time = lastFixTime ?? Date()
                let input: HeadingProcessor.Input = heading.reference == .trueNorth
                    ? .trueHeading(degrees: heading.headingDegrees, accuracyDegrees: nil, at: time)
                    : .magneticHeading(degrees: heading.headingDegrees, accuracyDegrees: nil, at: time)
                continuation.yield(.heading(input))
            }
        }
        var reader = NMEAReader(source: stream)
        var delivered = false
        while let record = try reader.next() {
            guard case .point(let point) = record, let location = point.position.location else { continue }
            delivered = true
            deliver(location)
        }
        return delivered
    }

    private func deliver(_ location: Location) {
        if case .nmeaFile(_, true) = source, let previous = lastFixTime {
            let gap = location.timestamp.timeIntervalSince(previous)
            if gap > 0 { Thread.sleep(forTimeInterval: min(gap, Self.maximumReplayGapSeconds)) }
        }
        lastFixTime = location.timestamp
        continuation.yield(.location(location))
    }
}

/// Finds heading sentences (HDT, THS, HDG) in the raw bytes of an NMEA stream, which the fix
/// reader passes over; decoded by `NMEAHeading` over the project's `NMEASentence`.
struct NMEAHeadingTap {
    private var partial: [UInt8] = []
    /// Lines longer than this are not NMEA (82 bytes at most); they are dropped.
    private static let maximumLineBytes = 1_024

    mutating func consume(_ block: UnsafeRawBufferPointer) -> [NMEAHeading] {
        var found: [NMEAHeading] = []
        for byte in block {
            if byte == 0x0A || byte == 0x0D {
                if partial.count > 6, partial[0] == UInt8(ascii: "$"),
                   case .sentence(let sentence) = NMEASentence.parse(partial).result,
                   let heading = NMEAHeading(sentence) {
                    found.append(heading)
                }
                partial.removeAll(keepingCapacity: true)
            } else if partial.count < Self.maximumLineBytes {
                partial.append(byte)
            }
        }
        return found
    }
}
