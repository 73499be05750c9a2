import Foundation
import TravelogCore
import TravelogFormats
import TravelogTracking

/// The location service's figures: upload reduction on real walks, the magnetic model's
/// agreement and speed, and the tracker process at 10 fixes/s.
enum TrackerBenchmarks {
    // MARK: tracker-walk

    /// `tracker-walk`: real GeoLife trajectories (../shared/fixtures/trackintel-geolife) through the
    /// location manager with hundred-metre accuracy and a 50 m distance filter: how many uploads
    /// are saved against every fix, and how far the farthest raw fix is from the kept path.
    static func walk(_ context: BenchmarkContext) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/trackintel-geolife")
        let files = [("walk (labelled walk)", "geolife_modes/020/Trajectory/20111201123535.plt"),
                     ("bike (labelled bike)", "geolife_modes/020/Trajectory/20111130151807.plt"),
                     ("day trace, user 000", "geolife_long/000/Trajectory/20081023025304.plt"),
                     ("day trace, user 001", "geolife_long/001/Trajectory/20081023234104.plt")]
        guard FileManager.default.fileExists(atPath: folder.path) else {
            print("../shared/fixtures/trackintel-geolife is absent: no real walk to measure")
            return
        }
        print("desired accuracy hundred-meters, distance filter 50 m; GeoLife has no accuracy: each fix is given 10 m")
        print("trace                    fixes   kept  reduction  max distance from kept path")
        for (label, path) in files {
            var reader = GeoLifeReader(source: try FileByteSource(path: folder.appendingPathComponent(path).path))
            var raw: [Location] = []
            while let record = try reader.next() {
                if case .point(let point) = record, var location = point.position.location {
                    location.horizontalAccuracyMeters = 10
                    raw.append(location)
                }
            }
            var configuration = LocationManagerConfiguration()
            configuration.desiredAccuracy = .hundredMeters
            configuration.distanceFilterMeters = 50
            var manager = LocationManager(configuration: configuration)
            manager.startUpdatingLocation()
            let kept = raw.flatMap { manager.ingest(.location($0)) }.flatMap { event -> [Location] in
                if case .didUpdateLocations(let locations) = event { return locations }
                return []
            }
            let deviation = raw.map { distanceToPath($0.coordinate, kept.map(\.coordinate)) }.max() ?? 0
            let reduction = 100 * (1 - Double(kept.count) / Double(max(1, raw.count)))
            print(label.padding(toLength: 24, withPad: " ", startingAt: 0)
                  + String(format: " %6d %6d %9.1f %% %10.1f m", raw.count, kept.count, reduction, deviation))
        }
    }

    /// The distance from a point to a polyline, in metres: to each segment in the point's local
    /// tangent plane (WGS84 radii of curvature), exact enough at segment lengths of tens of metres.
    static func distanceToPath(_ point: Coordinate, _ path: [Coordinate]) -> Double {
        guard let first = path.first else { return .infinity }
        let latitude = point.latitude * .pi / 180
        let e2 = WGS84.eccentricitySquared, a = WGS84.semiMajorAxisMeters
        let w = (1 - e2 * sin(latitude) * sin(latitude)).squareRoot()
        let metersPerRadianNorth = a * (1 - e2) / (w * w * w), metersPerRadianEast = a / w * cos(latitude)
        func xy(_ c: Coordinate) -> (Double, Double) {
            ((c.longitude - point.longitude) * .pi / 180 * metersPerRadianEast, (c.latitude - point.latitude) * .pi / 180 * metersPerRadianNorth)
        }
        var best = Geodesic.wgs84.distanceMeters(from: point, to: first)
        for (a, b) in zip(path, path.dropFirst()) {
            let (ax, ay) = xy(a), (bx, by) = xy(b)
            let dx = bx - ax, dy = by - ay
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? max(0, min(1, -(ax * dx + ay * dy) / lengthSquared)) : 0
            let px = ax + t * dx, py = ay + t * dy
            best = min(best, (px * px + py * py).squareRoot())
        }
        return best
    }

    // MARK: declination

    /// `declination`: agreement with NOAA's values at the WMM2025 report's test points
    /// (.build-data, `make wmm`) and evaluations per second at random places and dates.
    static func declination(_ context: BenchmarkContext) throws {
        let data = URL(fileURLWithPath: ".build-data")
        let model = try WorldMagneticModel(contentsOfFile: data.appendingPathComponent(WorldMagneticModel.wmm2025FileName).path)
        if let text = try? String(contentsOf: data.appendingPathComponent("WMM2025-test-values.tsv"), encoding: .utf8) {
            var worst = 0.0, count = 0
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let v = line.split(separator: "\t").compactMap { Double($0) }
                guard v.count == 11 else { continue }
                let d = try model.declinationDegrees(latitudeDegrees: v[2], longitudeDegrees: v[3], heightMeters: v[1] * 1000, decimalYear: v[0])
                worst = max(worst, abs(d - v[10]))
                count += 1
            }
            print("test points        \(count), largest declination difference \(String(format: "%.2e", worst))° (NOAA wmm_calculator)")
        }
        var generator = SplitMix64(seed: 2025)
        let count = 2_000_000
        var inputs: [(Double, Double, Double)] = []
        inputs.reserveCapacity(count)
        for _ in 0..<count {
            inputs.append((Double.random(in: -89.9...89.9, using: &generator), Double.random(in: -180...180, using: &generator),
                           Double.random(in: 2025...2029.9, using: &generator)))
        }
        var sum = 0.0
        let elapsed = try ContinuousClock().measure {
            for (latitude, longitude, year) in inputs {
                sum += try model.declinationDegrees(latitudeDegrees: latitude, longitudeDegrees: longitude, decimalYear: year)
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("evaluations        \(count) in \(String(format: "%.2f", seconds)) s (checksum \(String(format: "%.3f", sum / Double(count))))")
        print("evaluations/s      \(Int(Double(count) / seconds)) (one thread)")
    }

    // MARK: tracker-10hz

    /// `tracker-10hz`: a `travelog track --nmea udp://` process fed 10 fixes a second (RMC + GGA
    /// datagrams) for 60 s: its CPU time (from /proc) as a share of one core, its peak RSS, what the
    /// RSS is made of at the end (/proc/PID/smaps_rollup), and which executable the process runs
    /// (`travelog track` replaces itself by the lean `travelog-track` when it is beside `travelog`).
    /// Three runs: without a server, then uploading (default interval and batch size) to a local
    /// Overland receiver over http://, then over https:// (a self-signed certificate the tracker
    /// trusts through SSL_CERT_FILE, beside the system's certificates).
    static func tenHertz(_ context: BenchmarkContext) throws {
        try tenHertzRun(context, label: "no server", receiver: nil)
        for https in [false, true] {
            let receiver = try OverlandReceiver(https: https, folder: context.workDirectory)
            defer { receiver.stop() }
            try tenHertzRun(context, label: "uploading over \(https ? "https" : "http")", receiver: receiver)
        }
    }

    static func tenHertzRun(_ context: BenchmarkContext, label: String, receiver: OverlandReceiver?) throws {
        let port = UInt16.random(in: 40_000...60_000)
        let queue = context.workDirectory.appendingPathComponent("tracker-10hz.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: queue + suffix) }
        let process = Process()
        process.executableURL = context.travelogExecutable
        process.arguments = ["track", "--nmea", "udp://:\(port)", "--queue", queue]
        if let receiver {
            process.arguments! += ["--server", receiver.url.absoluteString, "--token", "benchmark"]
            if let certificate = receiver.certificatePath {
                process.environment = ProcessInfo.processInfo.environment.merging(["SSL_CERT_FILE": certificate]) { $1 }
            }
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        Thread.sleep(forTimeInterval: 2)
        let socket = Foundation.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let seconds = 60, rate = 10
        let before = cpuSeconds(process.processIdentifier)
        let start = Date()
        var peakRSS = 0
        for tick in 0..<(seconds * rate) {
            let time = Date(timeIntervalSinceNow: 0)
            let datagram = NMEASamples.epoch(time, northMeters: Double(tick) * 0.14)
            _ = datagram.withCString { text in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(socket, text, strlen(text), 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            peakRSS = max(peakRSS, residentKilobytes(process.processIdentifier))
            let next = start.addingTimeInterval(Double(tick + 1) / Double(rate))
            Thread.sleep(until: next)
        }
        let cpu = cpuSeconds(process.processIdentifier) - before
        let wall = Date().timeIntervalSince(start)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/exe")) ?? "?"
        let rollup = memoryRollupKilobytes(process.processIdentifier)
        print("-- \(label)")
        print("process            \(executable)")
        print("fixes sent         \(seconds * rate) at \(rate)/s over \(String(format: "%.0f", wall)) s (UDP, RMC + GGA)")
        if let receiver { print("fixes received     \(receiver.receivedCount) by \(receiver.url.absoluteString)") }
        print("CPU                \(String(format: "%.2f", 100 * cpu / wall)) % of one core")
        print("peak RSS           \(String(format: "%.1f", Double(peakRSS) / 1024)) MB")
        print("RSS at the end     \(String(format: "%.1f", Double(rollup["Rss"] ?? 0) / 1024)) MB: anonymous "
              + "\(String(format: "%.1f", Double(rollup["Anonymous"] ?? 0) / 1024)) MB, file-backed "
              + "\(String(format: "%.1f", Double((rollup["Rss"] ?? 0) - (rollup["Anonymous"] ?? 0)) / 1024)) MB (smaps_rollup)")
    }

    /// The kB fields of /proc/PID/smaps_rollup (Rss, Anonymous, Pss_File, …).
    static func memoryRollupKilobytes(_ pid: Int32) -> [String: Int] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return [:] }
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, parts[0].hasSuffix(":"), let value = Int(parts[1]) { fields[String(parts[0].dropLast())] = value }
        }
        return fields
    }

    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func residentKilobytes(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}

/// NMEA sentences of one epoch, for the 10 Hz benchmark.
enum NMEASamples {
    static func epoch(_ date: Date, northMeters: Double) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        let time = String(format: "%02d%02d%02d.%02d", c.hour!, c.minute!, c.second!, c.nanosecond! / 10_000_000)
        let day = String(format: "%02d%02d%02d", c.day!, c.month!, c.year! % 100)
        let minutes = 30 + northMeters / 1852
        let latitude = String(format: "46%08.5f", minutes)
        let rmc = sentence("GPRMC,\(time),A,\(latitude),N,00636.00000,E,0.27,0.0,\(day),,,A")
        let gga = sentence("GPGGA,\(time),\(latitude),N,00636.00000,E,1,09,0.9,372.0,M,48.0,M,,")
        return rmc + gga
    }

    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(body)*\(String(format: "%02X", checksum))\r\n"
    }
}
