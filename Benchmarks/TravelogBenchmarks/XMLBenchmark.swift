// `xml`: the streaming XML parser on a generated GPX 1.1 file of 1M track points.
import Foundation
import TravelogFormats
#if canImport(Glibc)
import Glibc
#endif

enum XMLBenchmark {
    static let pointCount = 1_000_000
    static let passes = 3

    static func run(_ context: BenchmarkContext) throws {
        // Deterministic (fixed seed): reused when present; the version changes with the generator.
        let url = context.workDirectory.appendingPathComponent("xml-benchmark-1M-v1.gpx")
        let generatedBytes: Int
        if let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size > 0 {
            generatedBytes = size
        } else {
            let partial = context.workDirectory.appendingPathComponent("xml-benchmark-1M-v1.gpx.partial")
            generatedBytes = try generate(at: partial)
            try FileManager.default.moveItem(at: partial, to: url)
        }
        print("pass: time to parse every event and read lat, lon, ele, time and hr of each point")
        print("input: \(url.path), \(pointCount) track points, \(generatedBytes) bytes (seed 0x7261_76E1)")
        print("peak RSS before parsing: \(peakResidentMebibytes()) MiB")
        var best = Double.infinity
        var bestCPU = Double.infinity
        for pass in 1...passes {
            let start = ContinuousClock.now
            let cpuStart = cpuSeconds()
            let summary = try parse(path: url.path)
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let cpu = cpuSeconds() - cpuStart
            best = min(best, seconds)
            bestCPU = min(bestCPU, cpu)
            guard summary.points == pointCount else {
                print("error: read \(summary.points) points, expected \(pointCount)")
                return
            }
            print(String(
                format: "pass %d: %.3f s (CPU %.3f s), %.0f MB/s, %.2f M points/s (checksum %.6f, %d time bytes)",
                pass, seconds, cpu, Double(generatedBytes) / seconds / 1e6, Double(summary.points) / seconds / 1e6,
                summary.checksum, summary.timeBytes
            ))
        }
        print(String(format: "best wall clock: %.0f MB/s, %.2f M points/s", Double(generatedBytes) / best / 1e6, Double(pointCount) / best / 1e6))
        print(String(format: "best CPU time (fairer on a shared machine): %.0f MB/s, %.2f M points/s", Double(generatedBytes) / bestCPU / 1e6, Double(pointCount) / bestCPU / 1e6))
        print("peak RSS after parsing: \(peakResidentMebibytes()) MiB")
    }

    struct Summary {
        var points = 0
        var checksum = 0.0
        var timeBytes = 0
    }

    /// One full pass: lat, lon (attributes), ele (number), time (text) and hr of every point.
    static func parse(path: String) throws -> Summary {
        let parser = try XMLPullParser(path: path, options: .init(skipsWhitespaceText: true))
        var summary = Summary()
        var latitude = 0.0
        var longitude = 0.0
        var elevation = 0.0
        var heartRate = 0
        while let event = try parser.next() {
            switch event {
            case .startElement:
                if parser.localName == "trkpt" {
                    latitude = parser.attribute("lat")?.parseDouble() ?? .nan
                    longitude = parser.attribute("lon")?.parseDouble() ?? .nan
                }
            case .endElement:
                let name = parser.localName
                if name == "ele" {
                    elevation = parser.text.parseDouble() ?? .nan
                } else if name == "time" {
                    let time = parser.text
                    summary.timeBytes += time.count
                    if let last = time.last { heartRate &+= Int(last) }
                } else if name == "hr" {
                    heartRate &+= parser.text.parseInteger() ?? 0
                } else if name == "trkpt" {
                    summary.points += 1
                    summary.checksum += latitude + longitude + elevation * 1e-6
                }
            case .text:
                break
            }
        }
        summary.checksum += Double(heartRate) * 1e-9
        return summary
    }

    /// Writes the GPX file (streamed in blocks, so generation does not inflate the peak RSS).
    static func generate(at url: URL) throws -> Int {
        guard let file = fopen(url.path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        var random = SplitMix64(seed: 0x7261_76E1)
        var block: [UInt8] = []
        block.reserveCapacity(1 << 20)
        var total = 0
        func flush() {
            total += block.count
            block.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, file) }
            block.removeAll(keepingCapacity: true)
        }
        block += Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Travelog benchmark" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
          <trk>
            <name>Benchmark</name>
            <trkseg>

        """.utf8)
        var latitudeE7 = 473_769_000
        var longitudeE7 = 85_417_000
        var elevationDecimeters = 4_080
        for index in 0..<pointCount {
            latitudeE7 += Int(random.next() % 201) - 100
            longitudeE7 += Int(random.next() % 201) - 100
            elevationDecimeters += Int(random.next() % 11) - 5
            let heartRate = 60 + Int(random.next() % 120)
            block += Array("      <trkpt lat=\"".utf8)
            appendFixed(latitudeE7, decimals: 7, to: &block)
            block += Array("\" lon=\"".utf8)
            appendFixed(longitudeE7, decimals: 7, to: &block)
            block += Array("\">\n        <ele>".utf8)
            appendFixed(elevationDecimeters, decimals: 1, to: &block)
            block += Array("</ele>\n        <time>".utf8)
            appendTime(secondsAfterStart: index, to: &block)
            block += Array("""
            </time>
                    <extensions>
                      <gpxtpx:TrackPointExtension>
                        <gpxtpx:hr>
            """.utf8)
            appendFixed(heartRate, decimals: 0, to: &block)
            block += Array("""
            </gpxtpx:hr>
                      </gpxtpx:TrackPointExtension>
                    </extensions>
                  </trkpt>

            """.utf8)
            if block.count > 1 << 19 { flush() }
        }
        block += Array("    </trkseg>\n  </trk>\n</gpx>\n".utf8)
        flush()
        return total
    }

    /// `value / 10^decimals` written with exactly `decimals` fraction digits.
    static func appendFixed(_ value: Int, decimals: Int, to block: inout [UInt8]) {
        if value < 0 { block.append(UInt8(ascii: "-")) }
        let digits = Array(String(abs(value)).utf8)
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, decimals + 1 - digits.count)) + digits
        block += padded[..<(padded.count - decimals)]
        if decimals > 0 {
            block.append(UInt8(ascii: "."))
            block += padded[(padded.count - decimals)...]
        }
    }

    /// 2024-05-01T06:00:00Z plus `secondsAfterStart` (fewer than 26 days).
    static func appendTime(secondsAfterStart: Int, to block: inout [UInt8]) {
        let seconds = 6 * 3600 + secondsAfterStart
        let day = 1 + seconds / 86_400
        let hour = seconds % 86_400 / 3600
        let minute = seconds % 3600 / 60
        let second = seconds % 60
        func two(_ value: Int) -> [UInt8] { [UInt8(48 + value / 10), UInt8(48 + value % 10)] }
        block += Array("2024-05-".utf8) + two(day) + [UInt8(ascii: "T")] + two(hour) + [UInt8(ascii: ":")]
            + two(minute) + [UInt8(ascii: ":")] + two(second) + [UInt8(ascii: "Z")]
    }

    /// User plus system CPU time of this process, in seconds (the machine may be shared).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func peakResidentMebibytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss / 1024  // kilobytes on Linux
    }

}
