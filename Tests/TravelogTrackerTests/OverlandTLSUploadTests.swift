import Foundation
import Testing
import TravelogTestSupport
@testable import TravelogTracker

/// https uploads through libssl: the certificate and the host name are verified. The TLS server
/// is Python's `ssl` module with a certificate made by the `openssl` command (both in `make
/// test`'s Debian packages); without them these tests are skipped and say so. The server is
/// ended with SIGKILL: it inherits the test process's blocked SIGTERM.
@Suite("Overland uploads over https", .enabled(if: tlsTestToolsPresent, "needs python3 and the openssl command for a local TLS server"))
struct OverlandTLSUploadTests {

    /// A self-signed certificate for `names` (subjectAltName entries such as "DNS:localhost") and its key.
    static func certificate(_ folder: URL, _ names: String) throws -> (certificate: String, key: String) {
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                                     "-subj", "/CN=travelog test", "-addext", "subjectAltName=\(names)"])
        return (certificate, key)
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        #expect(try ChildProcess.run(tool, arguments).status == 0, "\(tool) \(arguments.joined(separator: " "))")
    }

    /// An Overland receiver over TLS on 127.0.0.1 (Python's http.server and ssl); returns it and its port.
    static func receiver(certificate: String, key: String, folder: URL) throws -> (ChildProcess.Running, UInt16) {
        let script = """
            import http.server, ssl, sys
            class Receiver(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def do_POST(self):
                    self.rfile.read(int(self.headers.get("Content-Length", 0)))
                    body = b'{"result":"ok"}'
                    self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *arguments): pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        // ChildProcess, not Foundation's Process (whose run() can crash a test process with many files open).
        let process = try ChildProcess.start("/usr/bin/python3", ["-c", script, certificate, key])
        guard let port = process.firstLine().flatMap({ UInt16($0) }) else {
            process.stop()
            throw POSIXError(.ECONNREFUSED)
        }
        return (process, port)
    }

    @Test("a certificate from the trusted file, for the host's name or address, is accepted and the batch acknowledged")
    func trusted() async throws {
        let folder = TestDirectory.makeFolder("tls")
        let (certificate, key) = try Self.certificate(folder, "DNS:localhost,IP:127.0.0.1")
        let (server, port) = try Self.receiver(certificate: certificate, key: key, folder: folder)
        defer { server.stop() }
        for host in ["127.0.0.1", "localhost"] {
            let uploader = OverlandUploader(server: URL(string: "https://\(host):\(port)/overland")!, token: "t",
                                            timeoutSeconds: 20, trustedCertificatesPath: certificate)
            try await uploader.upload(["{}"])
        }
    }

    @Test("a self-signed certificate is refused by the system's trust store, and a certificate for another name even when trusted")
    func refused() async throws {
        let folder = TestDirectory.makeFolder("tls")
        let (certificate, key) = try Self.certificate(folder, "DNS:other.example")
        let (server, port) = try Self.receiver(certificate: certificate, key: key, folder: folder)
        defer { server.stop() }
        let url = URL(string: "https://127.0.0.1:\(port)/overland")!
        await #expect(throws: OverlandUploader.UploadError.unreachable("the server's certificate is not trusted: self-signed certificate")) {
            try await OverlandUploader(server: url, token: "t", timeoutSeconds: 20).upload(["{}"])
        }
        await #expect(throws: OverlandUploader.UploadError.unreachable("the server's certificate is not trusted: IP address mismatch")) {
            try await OverlandUploader(server: url, token: "t", timeoutSeconds: 20, trustedCertificatesPath: certificate).upload(["{}"])
        }
        let named = URL(string: "https://localhost:\(port)/overland")!
        await #expect(throws: OverlandUploader.UploadError.unreachable("the server's certificate is not trusted: hostname mismatch")) {
            try await OverlandUploader(server: named, token: "t", timeoutSeconds: 20, trustedCertificatesPath: certificate).upload(["{}"])
        }
    }
}

/// Whether python3 and openssl, which the local TLS server needs, are installed.
private let tlsTestToolsPresent = ["/usr/bin/python3", "/usr/bin/openssl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
