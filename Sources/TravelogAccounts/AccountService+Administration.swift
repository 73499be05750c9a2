import Foundation
import Synchronization
import TravelogStore

/// What an administrator does to users (`travelog user disable`, the page's administration), and
/// a person's own password change.
extension AccountService {
    /// Disables a user (no login, their device tokens refused, their sessions ended, their history
    /// kept) or enables them again. - Throws: `StoreError.lastAdministrator` inside `.store`.
    public func setDisabled(_ isDisabled: Bool, userID: UserID) async throws(AccountError) -> User {
        let user = try await wrap { () throws(StoreError) in try await store.setDisabled(isDisabled, userID: userID) }
        if isDisabled {
            forgetPasswords(of: userID)
            _ = try await wrap { () throws(StoreError) in try await store.deleteSessions(userID: userID) }
        }
        return user
    }

    /// Makes a user an administrator or not. - Throws: `StoreError.lastAdministrator` inside `.store`.
    public func setAdministrator(_ isAdministrator: Bool, userID: UserID) async throws(AccountError) -> User {
        try await wrap { () throws(StoreError) in try await store.setAdministrator(isAdministrator, userID: userID) }
    }

    /// Deletes a user and everything theirs. - Throws: `StoreError.lastAdministrator` inside `.store`.
    public func deleteUser(id: UserID) async throws(AccountError) {
        try await wrap { () throws(StoreError) in try await store.deleteUser(id: id) }
        forgetPasswords(of: id)
    }

    /// Changes the caller's own password after checking the current one (throttled as a login is).
    /// Every session of the user ends; the caller starts a new one.
    /// - Returns: false when `current` is wrong.
    public func changePassword(userID: UserID, current: String, new: String, from address: String?) async throws(AccountError) -> Bool {
        try Self.check(new)
        guard let user = try await wrap({ () throws(StoreError) in try await store.user(id: userID) }),
              try await self.user(named: user.name, password: current, from: address)?.id == userID else { return false }
        try await setPassword(new, userID: userID)
        return true
    }

    private func forgetPasswords(of userID: UserID) {
        verified.withLock { $0 = $0.filter { $0.value.userID != userID } }
    }
}
