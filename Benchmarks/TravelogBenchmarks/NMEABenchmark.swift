import Foundation
import TravelogFormats

/// `nmea`: reads a generated log of one million 1 Hz epochs (RMC + GGA + GSA each, a walk that
/// crosses midnight) with `NMEAReader` from a file and prints fixes per second.
enum NMEABenchmark {
    static let epochCount = 1_000_000

    static func run(_ context: BenchmarkContext) throws {
        let url = context.workDirectory.appendingPathComponent("nmea-1M-epochs.nmea")
        if !FileManager.default.fileExists(atPath: url.path) {
            try generate(to: url)
        }
        let clock = ContinuousClock()
        var fixes = 0
        var rejected = 0
        var bytes = 0
        let elapsed = try clock.measure {
            var reader = NMEAReader(source: try FileByteSource(path: url.path))
            while let record = try reader.next() {
                switch record {
                case .point: fixes += 1
                case .rejected: rejected += 1
                case .visit: break
                }
            }
            bytes = reader.bytesConsumed
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("file        \(url.lastPathComponent), \(bytes / 1_000_000) MB, \(epochCount) epochs")
        print("fixes       \(fixes) (rejected \(rejected))")
        print("time        \(String(format: "%.2f", seconds)) s")
        print("fixes/s     \(Int(Double(fixes) / seconds))")
        print("MB/s        \(String(format: "%.1f", Double(bytes) / 1e6 / seconds))")
    }

    /// Writes the log: a walk north-east from 50°N 17°E starting at 20:00:00 on 2019-03-08.
    static func generate(to url: URL) throws {
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var buffer = ""
        buffer.reserveCapacity(1 << 20)
        let startDay = 8, startSecond = 20 * 3600
        for epoch in 0..<epochCount {
            let total = startSecond + epoch
            let day = startDay + total / 86_400
            let second = total % 86_400
            let time = String(format: "%02d%02d%02d.00", second / 3600, second / 60 % 60, second % 60)
            let date = String(format: "%02d0319", day)
            let minutesNorth = 0.0001 * Double(epoch % 100_000)
            let latitude = String(format: "50%08.5f", minutesNorth.truncatingRemainder(dividingBy: 60))
            let longitude = String(format: "017%08.5f", (minutesNorth * 0.7).truncatingRemainder(dividingBy: 60))
            buffer += sentence("GPRMC,\(time),A,\(latitude),N,\(longitude),E,1.234,45.6,\(date),,,A")
            buffer += sentence("GPGGA,\(time),\(latitude),N,\(longitude),E,1,09,0.9,468.8,M,42.1,M,,")
            buffer += sentence("GPGSA,A,3,04,05,09,12,24,25,29,31,02,,,,1.6,0.9,1.3")
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        handle.write(Data(buffer.utf8))
    }

    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum) + "\r\n"
    }
}
