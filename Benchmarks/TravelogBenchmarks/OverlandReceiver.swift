import Foundation

/// A local Overland receiver for the tracker benchmark's upload cases: Python's http.server (and
/// `ssl` with a self-signed certificate made by the `openssl` command for https), answering
/// `{"result":"ok"}` and counting the fixes it received in a file.
struct OverlandReceiver {
    let process: Process
    let url: URL
    /// The PEM certificates to trust (SSL_CERT_FILE for the tracker) when the receiver speaks https:
    /// the system's and the receiver's.
    let certificatePath: String?
    private let countPath: String

    static let script = """
        import http.server, ssl, sys
        class Receiver(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            received = 0
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                Receiver.received += body.count(b'"type":"Feature"')
                open(sys.argv[1], "w").write(str(Receiver.received))
                answer = b'{"result":"ok"}'
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer))); self.end_headers(); self.wfile.write(answer)
            def log_message(self, *arguments): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        if len(sys.argv) > 2:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Starts a receiver on 127.0.0.1 (https with a fresh self-signed certificate for 127.0.0.1).
    init(https: Bool, folder: URL) throws {
        countPath = folder.appendingPathComponent("overland-received-\(https ? "https" : "http")").path
        var arguments = ["-c", Self.script, countPath]
        if https {
            let certificate = folder.appendingPathComponent("receiver-cert.pem").path
            let key = folder.appendingPathComponent("receiver-key.pem").path
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                 "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            arguments += [certificate, key]
            // The tracker trusts the system's certificates and this one, as many as a real
            // tracker reads at each https upload (Debian's bundle, about 140).
            let bundle = folder.appendingPathComponent("receiver-trusted.pem").path
            let system = (try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)) ?? ""
            try (system + (try String(contentsOfFile: certificate, encoding: .utf8))).write(toFile: bundle, atomically: true, encoding: .utf8)
            certificatePath = bundle
        } else {
            certificatePath = nil
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
        let port = String(decoding: line, as: UTF8.self)
        url = URL(string: "\(https ? "https" : "http")://127.0.0.1:\(port)/overland")!
    }

    /// The fixes received so far.
    var receivedCount: Int { (try? String(contentsOfFile: countPath, encoding: .utf8)).flatMap { Int($0) } ?? 0 }

    /// Ends the receiver with SIGKILL (a SIGTERM may be blocked in what it inherited).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
