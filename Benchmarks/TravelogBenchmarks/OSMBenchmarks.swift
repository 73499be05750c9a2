import Foundation
import TravelogOSM

/// `osm-read`: the `.osm.pbf` reader's speed in MB/s of compressed input, on the Helsinki extract
/// (`make osm-sample`) with 1 and 2 decoding threads, and on a generated extract of
/// `$TRAVELOG_BENCH_OSM_MB` MB (default 500: Helsinki's data blocks repeated after its header) with
/// the process's peak memory before and after, which must stay flat whatever the size.
/// `osm-add`: `travelog osm add` of the Helsinki extract, best of five runs.
enum OSMBenchmarks {
    static let helsinki = ".build-data/Helsinki.osm.pbf"

    static func read(_ context: BenchmarkContext) throws {
        guard FileManager.default.fileExists(atPath: helsinki) else {
            print("\(helsinki) is absent: run `make osm-sample` (make bench does) to measure the OSM reader")
            return
        }
        let bytes = Double((try FileManager.default.attributesOfItem(atPath: helsinki)[.size] as? Int) ?? 0)
        for threads in [1, 2] {
            var objects = 0
            let seconds = try GeodesicBenchmark.bestTime {
                objects = 0
                try OSMPBFReader(threads: threads).read(path: helsinki) { objects += $0.nodes.count + $0.ways.count + $0.relations.count }
            }
            print(String(format: "Helsinki.osm.pbf (%.2f MB), %d thread(s): %d objects in %.1f ms, %.1f MB/s compressed",
                         bytes / 1e6, threads, objects, seconds * 1000, bytes / 1e6 / seconds))
        }

        let megabytes = Int(ProcessInfo.processInfo.environment["TRAVELOG_BENCH_OSM_MB"] ?? "") ?? 500
        let large = context.workDirectory.appendingPathComponent("generated-\(megabytes)MB.osm.pbf").path
        if !FileManager.default.fileExists(atPath: large) { try generate(large, megabytes: megabytes) }
        let largeBytes = Double((try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0)
        let before = peakResidentBytes()
        var objects = 0
        let start = DispatchTime.now().uptimeNanoseconds
        try OSMPBFReader().read(path: large) { objects += $0.nodes.count + $0.ways.count + $0.relations.count }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        print(String(format: "generated extract (%.0f MB), %d threads: %d objects in %.2f s, %.1f MB/s compressed; peak resident %.0f MB before, %.0f MB after",
                     largeBytes / 1e6, ProcessInfo.processInfo.activeProcessorCount, objects, seconds, largeBytes / 1e6 / seconds,
                     Double(before) / 1e6, Double(peakResidentBytes()) / 1e6))
    }

    static func add(_ context: BenchmarkContext) throws {
        guard FileManager.default.fileExists(atPath: helsinki) else {
            print("\(helsinki) is absent: run `make osm-sample` (make bench does) to measure osm add")
            return
        }
        let folder = context.workDirectory.appendingPathComponent("osm").path
        let seconds = try GeodesicBenchmark.bestTime {
            let process = Process()
            process.executableURL = context.travelogExecutable
            process.arguments = ["osm", "add", "--osm-dir", folder, helsinki]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        print(String(format: "travelog osm add Helsinki.osm.pbf: %.0f ms (best of %d, the process included)", seconds * 1000, GeodesicBenchmark.repetitions))
    }

    /// Writes Helsinki's header frame, then its data frames over and over until `megabytes`.
    static func generate(_ path: String, megabytes: Int) throws {
        let source = try [UInt8](Data(contentsOf: URL(fileURLWithPath: helsinki)))
        var frames: [Range<Int>] = []
        var offset = 0
        while offset + 4 <= source.count {
            let headerLength = source[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let header = (offset + 4)..<(offset + 4 + headerLength)
            frames.append(offset..<(header.upperBound + dataSize(source[header])))
            offset = frames.last!.upperBound
        }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: source[frames[0]])
        var written = frames[0].count
        while written < megabytes * 1_000_000 {
            for frame in frames.dropFirst() {
                try handle.write(contentsOf: source[frame])
                written += frame.count
            }
        }
    }

    /// The `datasize` (field 3) of a `BlobHeader`.
    private static func dataSize(_ header: ArraySlice<UInt8>) -> Int {
        var index = header.startIndex
        func varint() -> Int {
            var value = 0, shift = 0
            while index < header.endIndex {
                let byte = header[index]
                index += 1
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }
        while index < header.endIndex {
            let key = varint()
            if key == 3 << 3 { return varint() }
            if key & 7 == 2 { index += varint() } else { _ = varint() }
        }
        return 0
    }

    /// This process's peak resident memory (VmHWM), bytes.
    static func peakResidentBytes() -> Int {
        ServerProcess.memory(processIdentifier: getpid()).peakBytes
    }
}
