import Foundation
import Hummingbird
import TravelogAccounts
import TravelogFormats
import TravelogImport
import TravelogStore

/// A person's own account: changing the password, downloading everything, deleting the account.
struct AccountRoutes {
    let store: any TravelogStore
    let accounts: AccountService
    let sessions: SessionRoutes
    let deletion: UserDeletion
    let tiles: HistoryTiles

    struct PasswordChange: Decodable {
        var current: String
        var new: String
    }

    struct DeletionConfirmation: Decodable {
        /// Absent or empty: the caller's session must have signed in within the last ten minutes.
        var password: String?
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
        router.get("/api/v1/account/export") { request, context in
            try await exportAccount(context, photoFiles: try request.choiceQuery("photos", ["false", "true"], default: "false") == "true")
        }
    }

    /// `GET /api/v1/account/export`: everything of the person as one zip (`AccountArchive`), written
    /// to a temporary file and then streamed; `?photos=true` puts the photos' originals in too. Not
    /// with a device token of any scope.
    func exportAccount(_ context: TravelogRequestContext, photoFiles: Bool) async throws -> Response {
        let user = try context.requirePerson().user
        guard let access = store as? any StoreTableAccess else { throw APIError.notFound("this store cannot export an account") }
        let download = try FileDownload(prefix: "travelog-account", fileName: "account.zip")
        let path = download.path
        do {
            // The archive is written before the answer starts; a client that leaves stops it.
            _ = try await context.untilClientLeaves {
                try await AccountArchive.export(userID: user.id, from: access, to: path, photoFiles: photoFiles)
            }
        } catch {
            download.discard()
            throw error
        }
        let day = String(ISO8601TimeFormatter.string(Date()).prefix(10))
        let name = String(user.name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        return download.response(contentType: "application/zip", fileName: "travelog-\(name)-\(day).zip")
    }

    /// `DELETE /api/v1/account` `{"password", "code"?}`: checks the password again and, with two-factor
    /// login on, a code (throttled as a login is), then deletes the person and everything theirs
    /// (`UserDeletion`) and clears the session's cookies. Without a password, a session that signed
    /// in (by password, or through the single sign-on provider) within the last ten minutes confirms
    /// it instead: someone who signs in through a provider has no password to type. 403 for a wrong
    /// password or code (with `secondFactor` when a code is needed or wrong) or an older sign-in,
    /// 409 for the last administrator. Not with a device token of any scope nor a share link.
    func deleteAccount(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requirePerson()
        let confirmation: DeletionConfirmation = try await request.decodeJSON(context: context)
        guard let password = confirmation.password, !password.isEmpty else {
            guard let secret = context.sessionSecret,
                  try await sessions.account({ () throws(AccountError) in try await accounts.signInConfirms(session: secret) }) != nil
            else {
                let minutes = Int(AccountService.confirmingSignInSeconds / 60)
                throw APIError.forbidden("type your password, or sign in again (a sign-in in the last \(minutes) minutes confirms "
                                         + "it is you) and delete then: nothing deleted")
            }
            return try await delete(identity.user.id)
        }
        let outcome = try await sessions.account { () throws(AccountError) in
            try await accounts.logIn(named: identity.user.name, password: password, code: confirmation.code,
                                     from: context.clientAddress)
        }
        switch outcome {
        case .loggedIn(let user) where user.id == identity.user.id:
            return try await delete(user.id)
        case .loggedIn, .wrongPassword:
            throw APIError.forbidden("the password is wrong: nothing deleted")
        case .codeNeeded:
            return try Self.codeAnswer("two-factor login is on: send a code of the authenticator app (or a recovery code) as 'code'")
        case .wrongCode:
            return try Self.codeAnswer("wrong code, or a code used already: nothing deleted")
        }
    }

    func delete(_ userID: UserID) async throws -> Response {
        _ = try await sessions.account { () throws(AccountError) in try await deletion.delete(userID: userID) }
        tiles.forget(userID: userID)
        return sessions.signedOut()
    }

    static func codeAnswer(_ message: String) throws -> Response {
        struct Body: Encodable {
            var error: String
            var secondFactor: String
        }
        return try Response.json(Body(error: message, secondFactor: SessionRoutes.secondFactorKind), status: .forbidden)
    }
}
