import Foundation
import Hummingbird
import TravelogAccounts
import TravelogStore

/// A person's own account: changing the password, deleting the account.
struct AccountRoutes {
    let accounts: AccountService
    let sessions: SessionRoutes
    let deletion: UserDeletion
    let tiles: HistoryTiles

    struct PasswordChange: Decodable {
        var current: String
        var new: String
    }

    struct DeletionConfirmation: Decodable {
        var password: String
        /// A code of the authenticator app or a recovery code, when two-factor login is on.
        var code: String?
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
        router.delete("/api/v1/account") { request, context in try await deleteAccount(request, context) }
    }

    /// `DELETE /api/v1/account` `{"password", "code"?}`: checks the password again and, with two-factor
    /// login on, a code (throttled as a login is), then deletes the person and everything theirs
    /// (`UserDeletion`) and clears the session's cookies. 403 for a wrong password or code (with
    /// `secondFactor` when a code is needed or wrong), 409 for the last administrator. Not with a
    /// device token of any scope nor a share link.
    func deleteAccount(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requirePerson()
        let confirmation: DeletionConfirmation = try await request.decodeJSON(context: context)
        let outcome = try await sessions.account { () throws(AccountError) in
            try await accounts.logIn(named: identity.user.name, password: confirmation.password, code: confirmation.code,
                                     from: context.clientAddress)
        }
        switch outcome {
        case .loggedIn(let user) where user.id == identity.user.id:
            try await sessions.account { () throws(AccountError) in try await deletion.delete(userID: user.id) }
            tiles.forget(userID: user.id)
            return sessions.signedOut()
        case .loggedIn, .wrongPassword:
            throw APIError.forbidden("the password is wrong: nothing deleted")
        case .codeNeeded:
            return try Self.codeAnswer("two-factor login is on: send a code of the authenticator app (or a recovery code) as 'code'")
        case .wrongCode:
            return try Self.codeAnswer("wrong code, or a code used already: nothing deleted")
        }
    }

    static func codeAnswer(_ message: String) throws -> Response {
        struct Body: Encodable {
            var error: String
            var secondFactor: String
        }
        return try Response.json(Body(error: message, secondFactor: SessionRoutes.secondFactorKind), status: .forbidden)
    }
}
