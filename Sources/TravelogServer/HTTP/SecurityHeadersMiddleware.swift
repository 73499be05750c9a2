import HTTPTypes
import Hummingbird

/// Headers on every answer, errors included: no MIME sniffing, no framing (clickjacking), no
/// `Referer` leaving the page (URLs may carry `?token=`), and a Content-Security-Policy that lets
/// an API answer load nothing at all. The page's own files carry the page's policy instead
/// (`WebRoutes.contentSecurityPolicy`).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var apiPolicy: String { "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        Self.harden(&response.headers)
        return response
    }

    static func harden(_ headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.xFrameOptions] = "DENY"
        headers[.referrerPolicy] = "no-referrer"
        // Nothing a Travelog server answers is for search engines (a share link least of all).
        headers[.xRobotsTag] = "noindex, nofollow"
        headers[.crossOriginOpenerPolicy] = "same-origin"
        headers[.crossOriginResourcePolicy] = "same-origin"
        if headers[.contentSecurityPolicy] == nil { headers[.contentSecurityPolicy] = apiPolicy }
    }
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xRobotsTag = HTTPField.Name("X-Robots-Tag")!
    static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
}
