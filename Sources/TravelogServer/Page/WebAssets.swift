import Foundation

/// The page's files: our own (index.html, app.js, app.css, compiled into the module's resources)
/// and Leaflet from Debian's `libjs-leaflet` (never from a CDN). Read once at start.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        var data: Data
        var contentType: String
    }

    /// The page's own files, served at `/` and `/<name>`.
    static let ownNames = ["index.html", "app.js", "app.css", "timeline.js", "timeline.css", "calendar.js"]

    let own: [String: Asset]
    let leafletDirectory: String

    init(leafletDirectory: String) {
        self.leafletDirectory = leafletDirectory
        var own: [String: Asset] = [:]
        for name in Self.ownNames {
            let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
            if let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Web")
                ?? Bundle.module.url(forResource: base, withExtension: ext),
               let data = try? Data(contentsOf: url) {
                own[name] = Asset(data: data, contentType: Self.contentType(ext))
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
