import Foundation
import Hummingbird
import TravelogAccounts
import TravelogStore

/// The first run in the browser: `GET /api/v1/setup` says whether the server still has no
/// account (so the page can say how to claim it instead of showing a login nobody has), and
/// `POST /api/v1/setup` `{"token", "user", "password"}` creates the first account with the
/// one-time token `travelog serve` printed, logs it in (the page's cookies, as a login) and uses
/// the token up.
struct SetupRoutes {
    let setup: FirstRunSetup?
    let store: any TravelogStore
    let sessions: SessionRoutes

    static let route = "/api/v1/setup"

    struct State: Encodable {
        /// No account exists yet.
        var needed: Bool
        /// The server printed a link that still works (it is not shown here).
        var linkPrinted: Bool
    }

    struct Form: Decodable {
        var token: String
        var user: String
        var password: String
    }

    func add(to router: RouteRegistry) {
        router.get(Self.route) { _, _ in
            let needed = try await hasNoUser()
            return try Response.json(State(needed: needed, linkPrinted: needed && setup?.isOpen == true))
        }
        router.post(Self.route) { request, context in
            var request = request
            let bytes = try await request.collectBytes(context: context)
            let form: Form
            do {
                form = try JSONDecoder().decode(Form.self, from: Data(bytes))
            } catch {
                throw APIError.badRequest("expected a JSON object {\"token\": …, \"user\": …, \"password\": …}")
            }
            guard let setup, setup.matches(form.token) else {
                throw APIError.forbidden("this setup link does not work: it was used already, or the server was restarted "
                                         + "since it was printed (the server's terminal shows the current one)")
            }
            guard try await hasNoUser() else {
                throw APIError.http(status: .conflict, "this server has an account already: log in")
            }
            guard setup.take(form.token) else {
                throw APIError.forbidden("this setup link was used a moment ago")
            }
            let user: User
            do throws(AccountError) {
                user = try await sessions.accounts.addUser(named: form.user, password: form.password)
            } catch {
                setup.giveBack(form.token)
                throw error.apiError
            }
            return try await sessions.loggedIn(user, status: .created)
        }
    }

    func hasNoUser() async throws(APIError) -> Bool {
        do {
            return try await store.users().isEmpty
        } catch {
            throw .storeFailed(error)
        }
    }
}
