import Testing

/// `PostgresPlanCheck` on plans as `EXPLAIN (FORMAT JSON)` gives them (shapes taken from
/// PostgreSQL 15's output), so that the plan test cannot pass by reading nothing.
@Suite("PostgreSQL plan check")
struct PostgresPlanCheckTests {
    static let userTables: Set<String> = ["devices", "notification_channels", "notification_deliveries"]

    static func scan(_ table: String, _ type: String = "Seq Scan", filter: String? = nil) -> [String: Any] {
        var node: [String: Any] = ["Node Type": type, "Relation Name": table]
        node["Filter"] = filter
        return node
    }

    static func problem(_ plan: [String: Any]) -> String? {
        PostgresPlanCheck.problem(PostgresPlanCheck.scans(in: ["Plan": plan], userTables: userTables))
    }

    @Test("a scan narrowed by user_id = parameter passes, also with an alias or = ANY")
    func narrowed() {
        #expect(Self.problem(Self.scan("devices", filter: "((user_id = $1) AND (name = $2))")) == nil)
        #expect(Self.problem(Self.scan("devices", filter: "(d.user_id = ANY ($2))")) == nil)
    }

    @Test("a scan by another column, by a user_id range, or with no condition reads across users")
    func acrossUsers() {
        #expect(Self.problem(Self.scan("devices", "Index Scan", filter: "(token_sha256 = $1)")) != nil)
        #expect(Self.problem(Self.scan("devices", filter: "(user_id > $1)")) != nil)
        #expect(Self.problem(Self.scan("devices", filter: "(other_user_id = $1)")) != nil)
        #expect(Self.problem(Self.scan("devices")) != nil)
    }

    @Test("a join on user_id passes when one side is narrowed by a parameter, and not otherwise")
    func joins() {
        let anchored: [String: Any] = ["Node Type": "Hash Join", "Hash Cond": "((c.user_id = n.user_id) AND (c.id = n.channel_id))",
                                       "Plans": [Self.scan("notification_deliveries", filter: "(user_id = $1)"),
                                                 ["Node Type": "Hash", "Plans": [Self.scan("notification_channels")]]]]
        #expect(Self.problem(anchored) == nil)
        let sweep: [String: Any] = ["Node Type": "Hash Join", "Hash Cond": "((c.user_id = n.user_id) AND (c.id = n.channel_id))",
                                    "Plans": [Self.scan("notification_deliveries", filter: "(state = $1)"),
                                              ["Node Type": "Hash", "Plans": [Self.scan("notification_channels")]]]]
        #expect(Self.problem(sweep) != nil)
    }

    @Test("tables without user_id (users, the reference table) and the insert target itself are not scans to check")
    func notChecked() {
        #expect(Self.problem(Self.scan("users", "Index Scan", filter: "(name = $1)")) == nil)
        #expect(Self.problem(["Node Type": "ModifyTable", "Relation Name": "devices", "Plans": [["Node Type": "Result"]]]) == nil)
    }
}
