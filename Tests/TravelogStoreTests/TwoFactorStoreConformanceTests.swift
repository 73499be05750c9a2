import Foundation
import Testing
import TravelogStore

@Suite("TwoFactorStore conformance")
struct TwoFactorStoreConformanceTests {
    static let day = Date(timeIntervalSince1970: 1_750_000_000)
    static let codes = (0..<10).map { SecretDigest(rawValue: "code\($0)") }

    static func twoFactorStore(_ factory: StoreFactory) async throws -> any TravelogStore & TwoFactorStore {
        try #require(try await factory.make() as? any TravelogStore & TwoFactorStore)
    }

    @Test("a secret waits until enabled, is replaced by a new one, and goes when disabled", arguments: StoreFactory.all)
    func setEnableDisable(factory: StoreFactory) async throws {
        let store = try await Self.twoFactorStore(factory)
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        #expect(try await store.twoFactor(userID: ada.id) == nil)
        #expect(try await store.enableTwoFactor(userID: ada.id) == false)
        try await store.setTwoFactor(secret: "JBSWY3DPEHPK3PXP", recoveryCodeDigests: Self.codes, userID: ada.id,
                                     at: Self.day.addingTimeInterval(0.0004))
        #expect(try await store.twoFactor(userID: ada.id)
                == TwoFactorRecord(secret: "JBSWY3DPEHPK3PXP", isEnabled: false, createdAt: Self.day, lastUsedStep: nil))
        #expect(try await store.recoveryCodeCount(userID: ada.id) == 10)
        #expect(try await store.twoFactor(userID: bob.id) == nil)
        #expect(try await store.recoveryCodeCount(userID: bob.id) == 0)
        #expect(try await store.enableTwoFactor(userID: ada.id))
        #expect(try await store.twoFactor(userID: ada.id)?.isEnabled == true)
        // A new secret replaces the old one with its codes, not enabled.
        try await store.setTwoFactor(secret: "GEZDGNBVGY3TQOJQ", recoveryCodeDigests: Array(Self.codes.prefix(2)), userID: ada.id, at: Self.day)
        #expect(try await store.twoFactor(userID: ada.id)?.secret == "GEZDGNBVGY3TQOJQ")
        #expect(try await store.twoFactor(userID: ada.id)?.isEnabled == false)
        #expect(try await store.recoveryCodeCount(userID: ada.id) == 2)
        #expect(try await store.deleteTwoFactor(userID: ada.id))
        #expect(try await store.deleteTwoFactor(userID: ada.id) == false)
        #expect(try await store.twoFactor(userID: ada.id) == nil)
        #expect(try await store.recoveryCodeCount(userID: ada.id) == 0)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.setTwoFactor(secret: "A", recoveryCodeDigests: [], userID: UserID(rawValue: 999_999), at: Self.day)
        }
    }

    @Test("a step is used once and never one before it; a recovery code is spent once, and only its owner's", arguments: StoreFactory.all)
    func spendsOnce(factory: StoreFactory) async throws {
        let store = try await Self.twoFactorStore(factory)
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        try await store.setTwoFactor(secret: "JBSWY3DPEHPK3PXP", recoveryCodeDigests: Self.codes, userID: ada.id, at: Self.day)
        #expect(try await store.useTwoFactorStep(58_333_333, userID: ada.id))
        #expect(try await store.useTwoFactorStep(58_333_333, userID: ada.id) == false)
        #expect(try await store.useTwoFactorStep(58_333_332, userID: ada.id) == false)
        #expect(try await store.useTwoFactorStep(58_333_334, userID: ada.id))
        #expect(try await store.twoFactor(userID: ada.id)?.lastUsedStep == 58_333_334)
        #expect(try await store.useTwoFactorStep(58_333_335, userID: bob.id) == false)
        #expect(try await store.spendRecoveryCode(Self.codes[3], userID: bob.id) == false)
        // Two spends of one code at once: exactly one wins.
        async let first = store.spendRecoveryCode(Self.codes[3], userID: ada.id)
        async let second = store.spendRecoveryCode(Self.codes[3], userID: ada.id)
        let results = try await [first, second]
        #expect(results.filter { $0 }.count == 1)
        #expect(try await store.recoveryCodeCount(userID: ada.id) == 9)
    }

    @Test("deleting a user deletes their second factor", arguments: StoreFactory.all)
    func goesWithTheUser(factory: StoreFactory) async throws {
        let store = try await Self.twoFactorStore(factory)
        _ = try await store.addUser(named: "admin")
        let ada = try await store.addUser(named: "ada")
        try await store.setTwoFactor(secret: "JBSWY3DPEHPK3PXP", recoveryCodeDigests: Self.codes, userID: ada.id, at: Self.day)
        try await store.deleteUser(id: ada.id)
        #expect(try await store.twoFactor(userID: ada.id) == nil)
        #expect(try await store.recoveryCodeCount(userID: ada.id) == 0)
    }
}
