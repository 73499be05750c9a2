import Foundation
import TravelogStore

extension NotificationDispatcher {
    /// One HTTP attempt.
    /// - Returns: whether it was delivered (2xx), what the delivery log shows (the status; for a
    ///   network failure only "no answer", whatever the failure, so the log tells nobody which
    ///   ports are open), and the detail for the operator's log.
    func send(_ delivery: Delivery) async -> (delivered: Bool, result: String, detail: String?) {
        var headers: [(String, String)] = []
        let url: URL
        let body: Data
        switch delivery.channel.kind {
        case .webhook(let target, let secret):
            url = target
            body = Self.webhookBody(delivery)
            headers.append(("Content-Type", "application/json"))
            headers.append((Self.signatureHeader, "sha256=" + Self.signature(body, secret: secret)))
            headers.append(("X-Travelog-Event", Self.headerSafe(delivery.message.event)))
            headers.append(("X-Travelog-Delivery", String(delivery.id.rawValue)))
        case .ntfy(let target, let token):
            url = target
            body = Data(delivery.message.message.utf8)
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
            headers.append(("Title", Self.headerSafe(delivery.message.title)))
            headers.append(("Tags", "round_pushpin"))
            if let token { headers.append(("Authorization", "Bearer \(token)")) }
        }
        do {
            let answer = try await client.post(url, headers: headers, body: Array(body))
            // A redirect is not followed: the log names where to, for the channel to be corrected.
            if (300..<400).contains(answer.status), let location = answer.location {
                return (false, "HTTP \(answer.status) to \(Self.headerSafe(location))", nil)
            }
            return ((200..<300).contains(answer.status), "HTTP \(answer.status)", nil)
        } catch {
            return (false, error.userVisibleResult, String(describing: error))
        }
    }
}
