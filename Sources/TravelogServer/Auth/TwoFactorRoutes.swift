import Foundation
import HTTPTypes
import Hummingbird
import TravelogAccounts
import TravelogStore

/// A person's own two-factor login (Settings → Two-factor login). Not with a device token.
///
/// - `GET /api/v1/account/two-factor`: on, waiting for a code, recovery codes left;
/// - `POST /api/v1/account/two-factor`: a new secret (text, `otpauth://` URI, QR code) and ten
///   recovery codes, shown once, waiting for a code of the app (409 while it is on);
/// - `POST /api/v1/account/two-factor/confirm` `{"code"}`: turns it on and ends the person's other
///   sessions (403 for a wrong code, throttled as logins are);
/// - `POST /api/v1/account/two-factor/disable` `{"password"}`: turns it off (403 for a wrong password).
struct TwoFactorRoutes {
    let accounts: AccountService

    struct StatusJSON: Encodable {
        var enabled: Bool
        var pending: Bool
        var recoveryCodesLeft: Int

        init(_ status: TwoFactorStatus) {
            enabled = status.isEnabled
            pending = status.isPending
            recoveryCodesLeft = status.recoveryCodesLeft
        }
    }

    struct SetupJSON: Encodable {
        var secret: String
        var uri: String
        var qrSVG: String?
        var recoveryCodes: [String]
    }

    struct CodeForm: Decodable {
        var code: String
    }

    struct PasswordForm: Decodable {
        var password: String
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/account/two-factor") { _, context in
            let user = try context.requirePerson().user
            return try Response.json(StatusJSON(try await twoFactor { () throws(TwoFactorError) in
                try await accounts.twoFactorStatus(userID: user.id)
            }))
        }
        router.post("/api/v1/account/two-factor") { _, context in
            let user = try context.requirePerson().user
            let setup = try await twoFactor { () throws(TwoFactorError) in try await accounts.beginTwoFactor(for: user) }
            return try Response.json(SetupJSON(secret: setup.secret, uri: setup.uri,
                                               qrSVG: try? QRCode(setup.uri).svg(title: "QR code of the two-factor secret for \(user.name)"),
                                               recoveryCodes: setup.recoveryCodes), status: .created)
        }
        router.post("/api/v1/account/two-factor/confirm") { request, context in
            let user = try context.requirePerson().user
            let form: CodeForm = try await request.decodeJSON(context: context)
            try await twoFactor { () throws(TwoFactorError) in
                try await accounts.confirmTwoFactor(for: user, code: form.code, from: context.clientAddress,
                                                    keepingSession: context.sessionSecret)
            }
            return try Response.json(StatusJSON(try await twoFactor { () throws(TwoFactorError) in
                try await accounts.twoFactorStatus(userID: user.id)
            }))
        }
        router.post("/api/v1/account/two-factor/disable") { request, context in
            let user = try context.requirePerson().user
            let form: PasswordForm = try await request.decodeJSON(context: context)
            let checked = try await twoFactor { () throws(TwoFactorError) in
                do throws(AccountError) { return try await accounts.user(named: user.name, password: form.password, from: context.clientAddress) }
                catch { throw .account(error) }
            }
            guard checked?.id == user.id else { throw APIError.forbidden("the password is wrong") }
            try await twoFactor { () throws(TwoFactorError) in try await accounts.disableTwoFactor(userID: user.id) }
            return try Response.json(StatusJSON(.off))
        }
    }

    /// Runs a two-factor operation, answering its failure as the API does.
    @discardableResult
    func twoFactor<T>(_ body: () async throws(TwoFactorError) -> T) async throws(APIError) -> T {
        do { return try await body() } catch { throw Self.apiError(error) }
    }

    static func apiError(_ error: TwoFactorError) -> APIError {
        switch error {
        case .unsupportedStore: .http(status: .notImplemented, error.description)
        case .unknownUser: .notFound(error.description)
        case .alreadyEnabled: .http(status: .conflict, error.description)
        case .notStarted: .http(status: .conflict, error.description)  // the account's state, not the request, is wrong
        case .wrongCode: .forbidden(error.description)
        case .account(let account): account.apiError
        }
    }
}
