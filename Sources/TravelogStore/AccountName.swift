import Foundation

/// The rule every store applies to user and device names: non-empty after trimming, at most 100
/// characters, no control characters.
public enum AccountName {
    public static func validated(_ name: String) throws(StoreError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 100,
              DisplayName.firstRefused(in: trimmed) == nil
        else { throw .invalidName(name) }
        return trimmed
    }
}
