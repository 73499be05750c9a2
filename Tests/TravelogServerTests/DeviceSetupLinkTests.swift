import Foundation
import Testing
import TravelogAccounts
import TravelogStore
import TravelogTestSupport

@Suite("Device setup links and QR codes")
struct DeviceSetupLinkTests {
    /// What zbarimg (Debian's zbar-tools, in TEST_DEBS) reads from the code drawn as a PBM image,
    /// 4 pixels a module with the quiet zone.
    static func decoded(_ code: QRCode) throws -> String {
        let scale = 4, margin = QRCode.quietZoneModules
        let side = (code.size + 2 * margin) * scale
        var text = "P1\n\(side) \(side)\n"
        for y in 0..<side {
            let row = (0..<side).map { x in code.isDark(row: y / scale - margin, column: x / scale - margin) ? "1" : "0" }
            text += row.joined(separator: " ") + "\n"
        }
        let path = TestDirectory.url.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try FileManager.default.createDirectory(at: TestDirectory.url, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: path)
        let result = try ChildProcess.run("/usr/bin/zbarimg", ["--raw", "-q", "-Sbinary", path.path])
        #expect(result.status == 0, "zbarimg found no code")
        var decoded = result.outputText
        if decoded.hasSuffix("\n") { decoded.removeLast() }
        return decoded
    }

    static let owntracksLink = AppSetup.instructions(baseURL: "https://travelog.example.org", user: "ada", device: "phone",
                                                     token: "tok_ABCdef-123_xyz", app: .owntracks)[0].link ?? ""

    @Test("a QR code reads back as the text it was made of (zbarimg)", arguments: [
        "hello", "overland://setup?url=https%3A%2F%2Ft.example%2Fapi%2Fv1%2Foverland&token=abc&device_id=phone&unique_id=yes",
        DeviceSetupLinkTests.owntracksLink, "Zürich · 東京",
    ])
    func roundTrip(text: String) throws {
        let code = try QRCode(text)
        #expect(try Self.decoded(code) == text)
    }

    @Test("a QR code has its version's size and three finder patterns")
    func structure() throws {
        let code = try QRCode("hello")
        #expect(code.version == 1)
        #expect(code.size == 21)
        let long = try QRCode(Self.owntracksLink)
        #expect(long.size == 17 + 4 * long.version)
        #expect(long.version > 1)
        for (top, left) in [(0, 0), (0, long.size - 7), (long.size - 7, 0)] {
            // A finder: a dark 7×7 ring, a light ring, a dark 3×3 centre.
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(long.isDark(row: top + row, column: left + column) == (ring != 2), "finder at \(top),\(left)")
                }
            }
        }
        #expect(!long.isDark(row: -1, column: 0), "the quiet zone is light")
    }

    @Test("too long or empty texts have no code, with a reason")
    func refusals() {
        #expect(throws: QRCodeError.empty) { try QRCode("") }
        #expect(throws: QRCodeError.tooLong(bytes: 3000)) { try QRCode(String(repeating: "a", count: 3000)) }
    }

    @Test("the SVG draws every dark module once, in a view box with the quiet zone")
    func svg() throws {
        let code = try QRCode("hello")
        let svg = code.svg(title: "a <code>")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 29 29\""))
        #expect(svg.contains("<title>a &lt;code&gt;</title>"))
        // Each run is "M x y h n v1 h-n z": the runs' lengths add up to the dark modules.
        let runs = svg.split(separator: "M").dropFirst().compactMap { run in run.split(separator: "h").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } }
        #expect(runs.reduce(0, +) == code.modules.count { $0 })
    }

    @Test("on a terminal two rows of modules make one line of half blocks")
    func terminal() throws {
        let code = try QRCode("hello")
        let lines = code.terminalText().split(separator: "\n")
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.filter { $0 == "▀" }.count == code.size + 4 })
    }

    @Test("OwnTracks' link carries its remote configuration: HTTP mode, URL, user, token, device, tracker id")
    func owntracks() throws {
        let link = try #require(URLComponents(string: Self.owntracksLink))
        #expect(link.scheme == "owntracks")
        #expect(link.path == "/config")
        let inline = try #require(link.queryItems?.first { $0.name == "inline" }?.value)
        let data = try #require(Data(base64Encoded: inline))
        let configuration = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(configuration["_type"] as? String == "configuration")
        #expect(configuration["mode"] as? Int == 3)
        #expect(configuration["url"] as? String == "https://travelog.example.org/api/v1/owntracks")
        #expect(configuration["auth"] as? Bool == true)
        #expect(configuration["username"] as? String == "ada")
        #expect(configuration["password"] as? String == "tok_ABCdef-123_xyz")
        #expect(configuration["deviceId"] as? String == "phone")
        #expect(configuration["tid"] as? String == "PH")
    }

    @Test("Overland's link names the endpoint, the token and the device")
    func overland() throws {
        let setup = AppSetup.instructions(baseURL: "https://t.example/", user: "ada", device: "my phone", token: "abc", app: .overland)[0]
        let text = try #require(setup.link)
        let link = try #require(URLComponents(string: text))
        #expect(link.scheme == "overland")
        #expect(link.host == "setup")
        let items = Dictionary(uniqueKeysWithValues: (link.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items == ["url": "https://t.example/api/v1/overland", "token": "abc", "device_id": "my phone", "unique_id": "yes"])
    }

    @Test("without the token, no setting or link carries one, and each says where it goes")
    func withoutToken() throws {
        for setup in AppSetup.instructions(baseURL: "https://t.example", user: "ada", device: "phone", token: nil) {
            #expect(!setup.settings.isEmpty)
            if let link = setup.link { #expect(!link.contains("password"), "\(setup.app)") }
            #expect(setup.settings.contains { $0.1.contains("TOKEN") || $0.1 == AppSetup.tokenPlaceholder }, "\(setup.app)")
        }
        let overland = try #require(AppSetup.instructions(baseURL: "https://t.example", user: "ada", device: "phone", token: nil, app: .overland).first?.link)
        #expect(!overland.contains("token="))
        let traccar = try #require(AppSetup.instructions(baseURL: "https://t.example", user: "ada", device: "phone", token: nil, app: .traccar).first)
        #expect(traccar.link == "https://t.example/api/v1/osmand")
    }
}
