import Foundation
import Hummingbird

struct WebRoutes {
    let web: WebAssets


    /// The page (`/`), each of its scripts and styles by name (`/{file}`: any `.js` or `.css` file of
    /// `Web/`, the set read once at start, so nothing else is reachable), Leaflet and
    /// Leaflet.markercluster (Debian's `libjs-leaflet.markercluster` installs into Leaflet's folder)
    /// under `/vendor/leaflet/`, and the OpenAPI document at `/api/openapi.yaml`.
    func add(to router: RouteRegistry) {
        router.get("/") { _, _ in
            guard let asset = web.own["index.html"] else { throw APIError.notFound("index.html is missing from this build") }
            return Self.response(asset)
        }
        router.get("/{file}") { _, context in
            let name = try context.parameters.require("file")
            guard name != "index.html", let asset = web.own[name] else {
                throw APIError.notFound("The page has no script or style of that name.")
            }
            return Self.response(asset)
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

    static func response(_ asset: WebAssets.Asset) -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        return Response.bytes(asset.data, contentType: asset.contentType, extraHeaders: headers)
    }

    /// Scripts and styles from this server only (no inline ones: Leaflet places its elements
    /// through the DOM's style properties, which a policy does not govern); map tiles from anywhere
    /// (the template is the operator's choice); `blob:` images, which only the page's own scripts make
    /// (a share link's photos, fetched with the link's key); never framed; forms and `<base>` stay on this server.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: blob: https: http:; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
}
