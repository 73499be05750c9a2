import Foundation
import Hummingbird

struct WebRoutes {
    let web: WebAssets


    /// The page (`/` and each of its scripts and styles by name: `/app.js`, `/import.js`…), Leaflet
    /// and Leaflet.markercluster (Debian's `libjs-leaflet.markercluster` installs into Leaflet's
    /// folder) under `/vendor/leaflet/`, and the OpenAPI document at `/api/openapi.yaml`.
    func add(to router: RouteRegistry) {
        let pages = [("/", "index.html")] + web.own.keys.filter { $0 != "index.html" }.sorted().map { ("/\($0)", $0) }
        for (path, name) in pages {
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
                throw APIError.notFound("Leaflet's \(relative) is not installed (Debian packages libjs-leaflet, libjs-leaflet.markercluster)")
            }
            var headers = HTTPFields()
            headers[.cacheControl] = "max-age=86400"
            return Response.bytes(asset.data, contentType: asset.contentType, extraHeaders: headers)
        }
        router.get("/api/openapi.yaml") { _, _ in
            Response.bytes(OpenAPIDocument.yaml, contentType: "application/yaml")
        }
    }

    /// Scripts and styles from this server only (no inline ones: Leaflet places its elements
    /// through the DOM's style properties, which a policy does not govern); map tiles from anywhere
    /// (the template is the operator's choice); never framed; forms and `<base>` stay on this server.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: https: http:; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
}
