import Foundation

/// The page's files: our own (every `.html`, `.js` and `.css` file of `Web/`, copied into the
/// module's resources) and Leaflet from Debian's `libjs-leaflet` (never from a CDN). Read once at
/// start.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        var data: Data
        var contentType: String
    }

    /// The page's own files, served at `/` and `/<name>`.
    let own: [String: Asset]
    let leafletDirectory: String

    init(leafletDirectory: String) {
        self.leafletDirectory = leafletDirectory
        var own: [String: Asset] = [:]
        if let directory = Bundle.module.url(forResource: "Web", withExtension: nil),
           let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for name in names where ["html", "js", "css"].contains((name as NSString).pathExtension) {
                if let data = try? Data(contentsOf: directory.appendingPathComponent(name)) {
                    own[name] = Asset(data: data, contentType: Self.contentType((name as NSString).pathExtension))
                }
            }
        }
        self.own = own
    }

    /// A file of Leaflet's distribution (`leaflet.js`, `leaflet.css`, `images/marker-icon.png`…);
    /// `nil` for anything outside its folder.
    func leaflet(_ relativePath: String) -> Asset? {
        guard !relativePath.contains(".."), !relativePath.hasPrefix("/") else { return nil }
        let path = (leafletDirectory as NSString).appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Asset(data: data, contentType: Self.contentType((relativePath as NSString).pathExtension))
    }

    static func contentType(_ fileExtension: String) -> String {
        switch fileExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "yaml": "application/yaml"
        default: "application/octet-stream"
        }
    }
}
