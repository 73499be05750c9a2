import Foundation
import Hummingbird
import TravelogAccounts
import TravelogStore

/// A person's own account: changing the password.
struct AccountRoutes {
    let accounts: AccountService
    let sessions: SessionRoutes

    struct PasswordChange: Decodable {
        var current: String
        var new: String
    }

    /// `POST /api/v1/account/password` `{"current": …, "new": …}`: checks the current password
    /// (throttled as a login is), sets the new one and ends every session of the person; the
    /// caller gets a new session (and cookie) at once. Not with a device token.
    func add(to router: RouteRegistry) {
        router.post("/api/v1/account/password") { request, context in
            let identity = try context.requirePerson()
            let change: PasswordChange = try await request.decodeJSON(context: context)
            let changed = try await sessions.account { () throws(AccountError) in
                try await accounts.changePassword(userID: identity.user.id, current: change.current, new: change.new,
                                                  from: context.clientAddress)
            }
            guard changed else { throw APIError.forbidden("the current password is wrong") }
            return try await sessions.loggedIn(identity.user)
        }
    }
}
