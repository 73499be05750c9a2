import Foundation

extension InMemoryLocationStore: TwoFactorStore {
    public func setTwoFactor(secret: String, recoveryCodeDigests: [SecretDigest], userID: UserID, at date: Date) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            state.twoFactor[userID] = (TwoFactorRecord(secret: secret, isEnabled: false, createdAt: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date))),
                                       Set(recoveryCodeDigests))
        }
    }

    public func twoFactor(userID: UserID) async throws(StoreError) -> TwoFactorRecord? {
        withState { $0.twoFactor[userID]?.record }
    }

    public func enableTwoFactor(userID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            guard state.twoFactor[userID] != nil else { return false }
            state.twoFactor[userID]?.record.isEnabled = true
            return true
        }
    }

    @discardableResult
    public func deleteTwoFactor(userID: UserID) async throws(StoreError) -> Bool {
        withState { $0.twoFactor.removeValue(forKey: userID) != nil }
    }

    public func useTwoFactorStep(_ step: Int64, userID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            guard let entry = state.twoFactor[userID], entry.record.lastUsedStep.map({ $0 < step }) ?? true else { return false }
            state.twoFactor[userID]?.record.lastUsedStep = step
            return true
        }
    }

    public func spendRecoveryCode(_ digest: SecretDigest, userID: UserID) async throws(StoreError) -> Bool {
        withState { state in state.twoFactor[userID]?.recoveryCodes.remove(digest) != nil }
    }

    public func recoveryCodeCount(userID: UserID) async throws(StoreError) -> Int {
        withState { $0.twoFactor[userID]?.recoveryCodes.count ?? 0 }
    }
}
