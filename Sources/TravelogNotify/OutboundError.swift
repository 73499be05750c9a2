/// Why a webhook or ntfy request got no HTTP answer.
public enum OutboundError: Error, Sendable, Equatable {
    /// The URL is not an http or https URL with a host.
    case unsupportedURL(String)
    /// The host, or every address it resolves to, is not public and private addresses are not allowed.
    case refusedAddress(host: String)
    /// The name did not resolve.
    case unresolvable(host: String)
    /// The whole exchange (resolution, connection, TLS, the request, the answer's head) took
    /// longer than the deadline.
    case deadlineExceeded(seconds: Double)
    /// The connection failed or closed before an answer (refused, reset, a TLS failure).
    case connectionFailed(String)
    /// The caller was cancelled (the server is shutting down).
    case cancelled

    /// What a user may see in the delivery log and the test answer: a refused address says so, but
    /// every network failure reads the same, so that the log cannot be used to tell an open port
    /// from a closed one (the operator's log has the detail).
    public var userVisibleResult: String {
        switch self {
        case .unsupportedURL: "refused: not an http or https URL"
        case .refusedAddress(let host):
            "refused: \(host) is a loopback, private or link-local address (the server allows public addresses only)"
        case .unresolvable, .deadlineExceeded, .connectionFailed: "no answer"
        case .cancelled: "interrupted (the server stopped)"
        }
    }
}
