import Foundation

/// Opens the descriptor of a source: a TCP connection, a bound UDP socket, a serial device set
/// to raw mode at its baud rate (termios), or a file.
enum SourceConnector {
    /// Why a source could not be opened; the text says what was tried.
    struct OpenError: Error, CustomStringConvertible {
        var description: String
    }

    static func open(_ source: GPSSource) throws -> DescriptorByteSource {
        switch source {
        case .gpsd(let host, let port), .nmeaTCP(let host, let port):
            return DescriptorByteSource(descriptor: try connectTCP(host: host, port: port), name: source.description)
        case .nmeaUDP(let port):
            return DescriptorByteSource(descriptor: try bindUDP(port: port), name: source.description, isDatagram: true)
        case .serial(let path, let baud):
            return DescriptorByteSource(descriptor: try openSerial(path: path, baudRate: baud), name: path)
        case .nmeaFile(let path, _):
            let descriptor = Foundation.open(path, O_RDONLY)
            guard descriptor >= 0 else { throw OpenError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
            return DescriptorByteSource(descriptor: descriptor, name: path)
        }
    }

    static func connectTCP(host: String, port: UInt16) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw OpenError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if descriptor >= 0 {
                if connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return descriptor }
                reason = String(cString: strerror(errno))
                close(descriptor)
            }
            entry = info.pointee.ai_next
        }
        throw OpenError(description: "cannot connect to \(host):\(port): \(reason)")
    }

    static func bindUDP(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw OpenError(description: "cannot create a UDP socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = 0  // INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw OpenError(description: "cannot listen on UDP port \(port): \(reason)")
        }
        return descriptor
    }

    /// The termios speeds for the usual NMEA baud rates.
    static let speeds: [Int: speed_t] = [4800: speed_t(B4800), 9600: speed_t(B9600), 19200: speed_t(B19200),
                                         38400: speed_t(B38400), 57600: speed_t(B57600), 115200: speed_t(B115200),
                                         230400: speed_t(B230400), 460800: speed_t(B460800)]

    static func openSerial(path: String, baudRate: Int) throws -> Int32 {
        guard let speed = speeds[baudRate] else {
            throw OpenError(description: "unsupported baud rate \(baudRate) (use one of \(speeds.keys.sorted().map(String.init).joined(separator: ", ")))")
        }
        let descriptor = Foundation.open(path, O_RDONLY | O_NOCTTY)
        guard descriptor >= 0 else { throw OpenError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw OpenError(description: "\(path) is not a serial device: \(reason)")
        }
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw OpenError(description: "cannot set \(path) to \(baudRate) baud: \(reason)")
        }
        return descriptor
    }
}
