import Foundation

/// Reads a plan of `EXPLAIN (FORMAT JSON)` for what the Citus distribution needs: each scan of a
/// table that carries `user_id` is narrowed to one user — an equality of `user_id` with a
/// parameter (`user_id = $1`, `user_id = ANY ($2)`) on the scan itself, or an equality of its
/// `user_id` with another scanned table's (a join within one user) when some scan of the query is
/// narrowed by a parameter. Anything else reads across users.
enum PostgresPlanCheck {
    /// The conditions a plan node applies, by the keys `EXPLAIN` gives them.
    static let conditionKeys = ["Index Cond", "Recheck Cond", "Filter", "TID Cond", "Hash Cond", "Merge Cond", "Join Filter"]
    /// The conditions a join applies to both of its sides.
    static let joinKeys = ["Hash Cond", "Merge Cond", "Join Filter"]

    /// `user_id = $1` or `user_id = ANY ($2)`, with or without a table alias.
    static func isByParameter(_ condition: String) -> Bool {
        condition.contains(#/(^|[^A-Za-z0-9_])([a-z_]+\.)?user_id = (ANY \()?\$[0-9]+/#)
    }

    /// `n.user_id = c.user_id`.
    static func isByJoin(_ condition: String) -> Bool {
        condition.contains(#/(^|[^A-Za-z0-9_])([a-z_]+\.)?user_id = ([a-z_]+\.)?user_id([^A-Za-z0-9_]|$)/#)
    }

    /// A scan of a table with `user_id`.
    struct Scan: Equatable {
        let table: String
        let nodeType: String
        let byParameter: Bool
        let byJoin: Bool
    }

    /// The scans of `userTables` in the plan (the top object of the `EXPLAIN` array).
    static func scans(in explain: [String: Any], userTables: Set<String>) -> [Scan] {
        guard let plan = explain["Plan"] as? [String: Any] else { return [] }
        var found: [Scan] = []
        visit(plan, joinConditions: [], userTables: userTables, into: &found)
        return found
    }

    /// Why the query reads across users, or `nil` when every scan is narrowed to one user.
    static func problem(_ scans: [Scan]) -> String? {
        let anchored = scans.contains(where: \.byParameter)
        let loose = scans.filter { !$0.byParameter && !($0.byJoin && anchored) }
        guard !loose.isEmpty else { return nil }
        return loose.map { "\($0.nodeType) on \($0.table) without user_id = parameter" }.joined(separator: "; ")
    }

    private static func visit(_ node: [String: Any], joinConditions: [String], userTables: Set<String>,
                              into found: inout [Scan]) {
        let own = conditionKeys.compactMap { node[$0] as? String }
        let joins = joinConditions + joinKeys.compactMap { node[$0] as? String }
        let nodeType = node["Node Type"] as? String ?? "?"
        if nodeType != "ModifyTable", let table = node["Relation Name"] as? String, userTables.contains(table) {
            let conditions = own + joinConditions
            found.append(Scan(table: table, nodeType: nodeType,
                              byParameter: own.contains(where: isByParameter),
                              byJoin: conditions.contains(where: isByJoin)))
        }
        for child in node["Plans"] as? [[String: Any]] ?? [] {
            visit(child, joinConditions: joins, userTables: userTables, into: &found)
        }
    }
}
