import Foundation
import TravelogFormats
import TravelogStore

/// Friendships travel by name, not by the old server's ids (`friends.jsonl`, one object a line:
/// `name`, `state` — `friend`, `invited` (the account invited them), `invitedYou` — and the two
/// history grants). An import restores a friendship only with a user of that name on the new
/// server, and only as an invitation from the account: a name there may be another person, so
/// nothing is shown until they accept, and history is granted again after (the grants are in the
/// file for the person to read). Names without a user there are listed as skipped.
extension AccountArchive {
    static let friendsFileName = "friends.jsonl"

    struct FriendLine: Codable, Equatable {
        var name: String
        var state: String
        var sharesMyHistory: Bool
        var sharesTheirHistory: Bool
    }

    /// Writes the user's friendships and invitations into `folder`. - Returns: how many, nil for a store without friends.
    static func writeFriends(userID: UserID, store: any StoreTableAccess, folder: URL) async throws -> Int? {
        guard let friends = store as? any FriendStore, let accounts = store as? any AccountStore else { return nil }
        let writer = try ArchiveFileWriter(path: folder.appendingPathComponent(friendsFileName).path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var count = 0
        for friendship in try await friends.friendships(userID: userID) {
            guard let other = try await accounts.user(id: friendship.other(than: userID)) else { continue }
            let state = friendship.acceptedAt != nil ? "friend" : friendship.inviterID == userID ? "invited" : "invitedYou"
            let line = FriendLine(name: other.name, state: state, sharesMyHistory: friendship.sharesHistory(by: userID),
                                  sharesTheirHistory: friendship.sharesHistory(by: other.id))
            try writer.write(String(decoding: try encoder.encode(line), as: UTF8.self))
            count += 1
        }
        try writer.close()
        return count
    }

    /// Invites, from the imported user, each friend of the archive who has an account of that name here.
    /// - Returns: the names invited and the names skipped (no such user here), in the file's order.
    static func restoreFriends(of archive: ZipArchive, userID: UserID, into store: any TravelogStore)
        async throws -> (invited: [String], skipped: [String]) {
        guard let entry = archive.entry(named: friendsFileName) else { return ([], []) }
        var reader = LineReader(source: try archive.contents(of: entry))
        var invited: [String] = [], skipped: [String] = []
        while let line = try reader.next() {
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
            let friend: FriendLine
            do { friend = try JSONDecoder().decode(FriendLine.self, from: Data(line.bytes)) } catch {
                throw AccountArchiveError.badRow(file: friendsFileName, line: line.number, reason: "not a friend (name, state, sharesMyHistory, sharesTheirHistory)")
            }
            guard let friends = store as? any FriendStore, let other = try await store.user(named: friend.name), other.id != userID,
                  try await friends.addFriendInvitation(from: userID, to: other.id, at: Date()) != nil else {
                skipped.append(friend.name)
                continue
            }
            invited.append(friend.name)
        }
        return (invited, skipped)
    }
}
