import Foundation
import Hummingbird
import TravelogAccounts

extension SessionRoutes {
    /// The second factor a login asks for, in the 401's `secondFactor` field.
    static let secondFactorKind = "totp"

    /// What `POST /api/v1/session` answers for a login's outcome. A right password of a user with
    /// two-factor login on, without a code, is a 401 `{"error": …, "secondFactor": "totp"}`: the page
    /// then asks for the code and sends the three fields again.
    func loginAnswer(_ outcome: AccountService.LoginOutcome) async throws -> Response {
        switch outcome {
        case .loggedIn(let user):
            return try await loggedIn(user)
        case .wrongPassword:
            throw APIError.unauthorized("wrong user name or password")
        case .codeNeeded:
            return try Self.secondFactorAnswer("a code from the authenticator app (or a recovery code) is needed: send it as 'code'")
        case .wrongCode:
            return try Self.secondFactorAnswer("wrong code, or a code used already: type the code the app shows now")
        }
    }

    static func secondFactorAnswer(_ message: String) throws -> Response {
        struct Body: Encodable {
            var error: String
            var secondFactor: String
        }
        return try Response.json(Body(error: message, secondFactor: secondFactorKind), status: .unauthorized)
    }
}
