import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP session notifications go out on: no cookies or cache kept between requests, and no
/// redirect followed, so a webhook that moved answers with its 3xx (logged, retried, its new URL
/// to be configured) instead of the POST turning into a GET somewhere else that answers 200.
enum NotificationSession {
    static let shared = URLSession(configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)

    /// Answers every redirect with "don't follow".
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }
}
