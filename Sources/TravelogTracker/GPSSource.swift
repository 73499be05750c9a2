import Foundation

/// Where the tracker reads fixes from.
public enum GPSSource: Hashable, Sendable, CustomStringConvertible {
    /// gpsd's JSON protocol over TCP (default port 2947).
    case gpsd(host: String, port: UInt16)
    /// NMEA 0183 from a serial device at a baud rate.
    case serial(path: String, baudRate: Int)
    /// NMEA 0183 from a TCP server (a receiver's or a multiplexer's network port).
    case nmeaTCP(host: String, port: UInt16)
    /// NMEA 0183 datagrams sent to a local UDP port.
    case nmeaUDP(port: UInt16)
    /// An NMEA log, replayed in real time (the fixes' own spacing) or as fast as possible.
    case nmeaFile(path: String, realTime: Bool)

    public static let gpsdDefaultPort: UInt16 = 2947

    /// Whether the source ends (a file) rather than reconnects.
    public var isFinite: Bool { if case .nmeaFile = self { true } else { false } }

    public var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd at \(host):\(port)"
        case .serial(let path, let baud): "NMEA on \(path) at \(baud) baud"
        case .nmeaTCP(let host, let port): "NMEA over TCP from \(host):\(port)"
        case .nmeaUDP(let port): "NMEA over UDP on port \(port)"
        case .nmeaFile(let path, let realTime): "NMEA log \(path)\(realTime ? " in real time" : "")"
        }
    }

    /// `HOST:PORT`, `HOST` or `:PORT` into a host and a port.
    public static func hostAndPort(_ text: String, defaultPort: UInt16) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":") else { return text.isEmpty ? nil : (text, defaultPort) }
        let host = String(text[..<colon])
        guard let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    /// What `--nmea` names: `tcp://HOST:PORT`, `udp://:PORT`, a character device (serial), or a file.
    public static func nmea(_ text: String, baudRate: Int, realTime: Bool) -> GPSSource? {
        if text.hasPrefix("tcp://") {
            return hostAndPort(String(text.dropFirst(6)), defaultPort: 10110).map { .nmeaTCP(host: $0.0, port: $0.1) }
        }
        if text.hasPrefix("udp://") {
            return hostAndPort(String(text.dropFirst(6)), defaultPort: 10110).map { .nmeaUDP(port: $0.1) }
        }
        var info = stat()
        if stat(text, &info) == 0, (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFCHR) { return .serial(path: text, baudRate: baudRate) }
        return .nmeaFile(path: text, realTime: realTime)
    }
}
