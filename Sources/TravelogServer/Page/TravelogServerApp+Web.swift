import Foundation
import Hummingbird

extension TravelogServerApp {
    /// The page (`/`, `/app.js`, `/app.css`, `/timeline.js`, `/timeline.css`), Leaflet under `/vendor/leaflet/`, and the OpenAPI
    /// document at `/api/openapi.yaml`.
    func addWebRoutes(to router: RouteRegistry) {
        for (path, name) in [("/", "index.html")] + WebAssets.ownNames.dropFirst().map({ ("/\($0)", $0) }) {
            router.get(path) { _, _ in
                guard let asset = web.own[name] else { throw APIError.notFound("\(name) is missing from this build") }
                var headers = HTTPFields()
                headers[.cacheControl] = "no-cache"
                headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
                return Response.bytes(asset.data, contentType: asset.contentType, extraHeaders: headers)
            }
        }
        router.get("/vendor/leaflet/**") { request, _ in
            let relative = String(request.uri.path.dropFirst("/vendor/leaflet/".count))
            guard let asset = web.leaflet(relative) else {
                throw APIError.notFound("Leaflet's \(relative) is not installed (Debian package libjs-leaflet)")
            }
            var headers = HTTPFields()
            headers[.cacheControl] = "max-age=86400"
            return Response.bytes(asset.data, contentType: asset.contentType, extraHeaders: headers)
        }
        router.get("/api/openapi.yaml") { _, _ in
            Response.bytes(OpenAPIDocument.yaml, contentType: "application/yaml")
        }
    }

    /// Scripts and styles from this server only; map tiles from anywhere (the template is the
    /// operator's choice).
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: https: http:; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'"
}
