package conventions

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// runModes runs the cases as runRuleCases does, then each once more in
// enforce and in warn mode: in enforce a case whose rules include an
// error-severity one is refused (Refuse names them), in warn it is
// written and its violations are still reported.
func runModes(t *testing.T, cases []ruleCase) {
	t.Helper()
	runRuleCases(t, cases)
	r, err := New(Config{})
	require.NoError(t, err)
	for _, tc := range cases {
		for _, mode := range []Mode{ModeEnforce, ModeWarn} {
			roles, err := ParseRoles(tc.roles)
			require.NoError(t, err)
			w := Write{Table: "app-test", Policy: Policy{Roles: roles, TenantSegment: tc.seg, Exempt: tc.exempt, Mode: mode},
				Op: tc.op, Key: Key{PK: tc.pk, SK: tc.sk}, Old: tc.old, New: tc.new,
				NotExistsCondition: tc.cond, CallerTenant: tc.caller, Design: tc.design, Command: tc.commandLookup()}
			if tc.policy != nil {
				tc.policy(&w.Policy)
			}
			vs := r.CheckWrite(w)
			refusal := Refuse(vs, func(string) Mode { return w.Policy.Mode })
			blocks := slices.ContainsFunc(vs, func(v Violation) bool { return v.Severity == SeverityError })
			require.Len(t, vs, len(tc.want), "%s (%s)", tc.name, mode)
			switch {
			case mode == ModeWarn:
				require.Nil(t, refusal, "%s: warn mode refuses nothing", tc.name)
			case blocks:
				require.NotNil(t, refusal, "%s: enforce refuses", tc.name)
				for _, v := range refusal.Violations {
					require.Contains(t, refusal.Error(), "[conventions "+v.Rule+"]")
					require.Contains(t, refusal.Error(), "why: "+v.Reason())
				}
			default:
				require.Nil(t, refusal, "%s: a warning alone refuses nothing", tc.name)
			}
		}
	}
}

func TestRulesTimeSeries(t *testing.T) {
	month := func(seg int, format string) func(*Policy) {
		return func(p *Policy) { p.MonthSegment, p.MonthFormat = seg, format }
	}
	log := func(pk string) storage.Item {
		return storage.Item{"version": n("1"), "id": s(pk + "#2026-11-22T11:00:00.000Z#evt001"), "tenantCode": s("tenant001")}
	}
	const sk = "2026-11-22T11:00:00.000Z#evt001"
	runModes(t, []ruleCase{
		// The guide's shape, as the framework test's log module writes it.
		{name: "A13 pass", roles: "data", seg: 1, pk: "LOG#tenant001#2026-11", sk: sk, new: log("LOG#tenant001#2026-11"), policy: month(2, "")},
		{name: "A13 pass declared YYYYMM", roles: "data", seg: 1, pk: "LOG#tenant001#202611", sk: sk, new: log("LOG#tenant001#202611"), policy: month(2, "YYYYMM")},
		{name: "A13 pass day buckets", roles: "keys", seg: 1, pk: "AUDIT#tenant001#2026-11-22", sk: "2026-11-22T23:59:59Z#e1", new: storage.Item{}, policy: month(2, "YYYY-MM-DD")},
		{name: "A13 timestamp in another month", roles: "data", seg: 1, pk: "LOG#tenant001#2026-10", sk: sk, new: log("LOG#tenant001#2026-10"), policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 timestamp with an offset, UTC month", roles: "keys", seg: 1, pk: "LOG#tenant001#2026-10", sk: "2026-11-01T08:00:00+09:00#e1", new: storage.Item{}, policy: month(2, "")},
		{name: "A13 sort key without a timestamp", roles: "keys", seg: 1, pk: "LOG#tenant001#2026-11", sk: "evt001", new: storage.Item{}, policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 command sort key, version removed", roles: "command", seg: 1, pk: "LOG#tenant001#2026-11", sk: sk + "@1", new: log("LOG#tenant001#2026-11"), cond: true, policy: month(2, "")},
		{name: "A13 no month", roles: "data", seg: 1, pk: "LOG#tenant001", sk: sk, new: log("LOG#tenant001"), policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 full date", roles: "data", seg: 1, pk: "LOG#tenant001#2026-11-22", sk: sk, new: log("LOG#tenant001#2026-11-22"), policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 YYYYMM where YYYY-MM is declared", roles: "data", seg: 1, pk: "LOG#tenant001#202611", sk: sk, new: log("LOG#tenant001#202611"), policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 one-digit month", roles: "data", seg: 1, pk: "LOG#tenant001#2026-1", sk: sk, new: log("LOG#tenant001#2026-1"), policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 month before the tenant", roles: "data", seg: 1, pk: "LOG#2026-11#tenant001", sk: sk,
			new: with(log("LOG#2026-11#tenant001"), "tenantCode", none), policy: month(2, ""), want: []string{"A13"}},
		{name: "A13 not declared: not checked", roles: "data", seg: 1, pk: "LOG#tenant001#2026-11-22", sk: sk, new: log("LOG#tenant001#2026-11-22")},
	})
	vs := New0(t).CheckWrite(Write{Table: "t", Policy: Policy{Roles: RoleKeys, TenantSegment: 1, MonthSegment: 2},
		Key: Key{PK: "LOG#2026-11#tenant001", SK: "e1"}, New: storage.Item{}})
	require.Len(t, vs, 1)
	require.Contains(t, vs[0].Message, `has the month "2026-11" where the tenant belongs (segment 1)`)
}

func TestMonthPolicyValidation(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    Policy
		ok   bool
	}{
		{"guide", Policy{Roles: RoleData, TenantSegment: 1, MonthSegment: 2}, true},
		{"format", Policy{Roles: RoleData, TenantSegment: 1, MonthSegment: 2, MonthFormat: "YYYYMM"}, true},
		{"no tenant segment", Policy{Roles: RoleData, MonthSegment: 2}, false},
		{"month before tenant", Policy{Roles: RoleData, TenantSegment: 2, MonthSegment: 1}, false},
		{"bad format", Policy{Roles: RoleData, TenantSegment: 1, MonthSegment: 2, MonthFormat: "yyyy/mm"}, false},
		{"format without segment", Policy{Roles: RoleData, MonthFormat: "YYYY-MM"}, false},
	} {
		err := tt.p.Validate()
		require.Equal(t, tt.ok, err == nil, "%s: %v", tt.name, err)
	}
}

func TestRulesSortKeySegments(t *testing.T) {
	k := storage.Item{}
	runModes(t, []ruleCase{
		// The guide's and the framework's sort keys.
		{name: "A15 hierarchy", roles: "keys", pk: "ORDER#t1", sk: "ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#001", new: k},
		{name: "A15 consistent", roles: "keys", pk: "ORDER#t1", sk: "ORDER#01HX7M#ITEM#001", new: k},
		{name: "A15 time series", roles: "keys", pk: "LOG#t1", sk: "2024-01-15T10:30:00Z#evt001", new: k},
		{name: "A15 framework timestamp", roles: "keys", pk: "LOG#t1", sk: "2024-10-11T13:46:59+07:00#evt001", new: k},
		{name: "A15 TTL setting", roles: "master", pk: "MASTER#t1", sk: "TTL#local-demo-order-command", new: k},
		{name: "A15 command version", roles: "command", pk: "ORDER#t1", sk: "ORDER#1@2", new: cmd, cond: true},
		// The guide's anti-pattern and its kin.
		{name: "A15 mixed separators", roles: "keys", pk: "ORDER#t1", sk: "ORDER-01HX7M_item:001", new: k, want: []string{"A15"}},
		{name: "A15 pipe", roles: "keys", pk: "ORDER#t1", sk: "ORDER|01HX7M", new: k, want: []string{"A15"}},
		{name: "A15 slash", roles: "keys", pk: "FILE#t1", sk: "FILE#a/b", new: k, want: []string{"A15"}},
		{name: "A15 empty segment", roles: "keys", pk: "ORDER#t1", sk: "ORDER##001", new: k, want: []string{"A15"}},
		{name: "A15 trailing separator", roles: "keys", pk: "ORDER#t1", sk: "ORDER#", new: k, want: []string{"A15"}},
	})
}

func TestRulesMasterSortKey(t *testing.T) {
	k := storage.Item{}
	runModes(t, []ruleCase{
		{name: "A16 guide data", roles: "master", pk: "MASTER#t1", sk: "DATA#product_category#electronics", new: k},
		{name: "A16 guide setting", roles: "master", pk: "MASTER#t1", sk: "SETTING#notification#email_template", new: k},
		{name: "A16 guide copy", roles: "master", pk: "MASTER#t1", sk: "COPY#backup#2024-01-01", new: k},
		{name: "A16 master package setting", roles: "master", pk: "MASTER#t1", sk: "MASTER_SETTING#currency", new: k},
		{name: "A16 master package data", roles: "master", pk: "MASTER#t1", sk: "PRODUCT_TYPE#food", new: k},
		{name: "A16 TTL setting", roles: "master", pk: "MASTER#t1", sk: "TTL#local-demo-order-data", new: k},
		{name: "A16 versioned command row", roles: "master+command", pk: "MASTER#t1", sk: "MASTER_SETTING#currency@1",
			new: storage.Item{"version": n("1")}, cond: true},
		{name: "A16 one segment", roles: "master", pk: "MASTER#t1", sk: "electronics", new: k, want: []string{"A16"}},
		{name: "A16 guide type without category", roles: "master", pk: "MASTER#t1", sk: "DATA#electronics", new: k, want: []string{"A16"}},
		{name: "A16 lower-case type", roles: "master", pk: "MASTER#t1", sk: "data#product_category#electronics", new: k, want: []string{"A16"}},
		{name: "A16 four segments", roles: "master", pk: "MASTER#t1", sk: "DATA#product#category#electronics", new: k, want: []string{"A16"}},
		{name: "A16 not a master table", roles: "keys", pk: "PRODUCT#t1", sk: "electronics", new: k},
	})
}

func TestRulesCommandUpdatable(t *testing.T) {
	up := func(kv ...any) storage.Item { return with(cmd, kv...) }
	listed := func(names ...string) func(*Policy) { return func(p *Policy) { p.Updatable = names } }
	runModes(t, []ruleCase{
		// The framework's updateStatus and updateTaskToken.
		{name: "B7 updateStatus", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("status", s("finish:FINISHED"), "updatedAt", s("2026-11-22T11:00:00+09:00"))},
		{name: "B7 updateTaskToken", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("taskToken", s("AAAA"), "updatedAt", s("2026-11-22T11:00:00+09:00"))},
		{name: "B7 nothing changed", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd, new: cmd},
		{name: "B7 a listed attribute", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("note", s("checked")), policy: listed("status", "note")},
		// Rewrites of the version.
		{name: "B7 attributes edited", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("attributes", storage.M(map[string]storage.Value{"total": n("999")})), want: []string{"B7"}},
		{name: "B7 name and ttl edited", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("name", s("x"), "ttl", n("1767225600")), want: []string{"B7", "B7"}},
		{name: "B7 attribute removed", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("tenantCode", none), want: []string{"B7"}},
		{name: "B7 status not listed", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("status", s("x")), policy: listed("note"), want: []string{"B7"}},
		{name: "B7 nothing updatable", roles: "command", op: OpUpdate, pk: "ORDER#t1", sk: "ORDER#1@2", old: cmd,
			new: up("status", s("x")), policy: func(p *Policy) { p.Updatable = []string{} }, want: []string{"B7"}},
	})
}

func TestRulesSequenceStart(t *testing.T) {
	row := storage.Item{"code": s("INVOICE"), "tenantCode": s("t1")}
	start := func(m map[string]int64) func(*Policy) { return func(p *Policy) { p.SequenceStart = m } }
	runModes(t, []ruleCase{
		{name: "A8 declared start by UpdateItem", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "INVOICE#2026",
			new: with(row, "seq", n("1001")), policy: start(map[string]int64{"INVOICE#*": 1001})},
		{name: "A8 declared start by PutItem", roles: "sequences", op: OpPut, pk: "SEQ#t1", sk: "INVOICE#2026",
			new: with(row, "seq", n("1001")), policy: start(map[string]int64{"*": 1001})},
		{name: "A8 then up by one", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "INVOICE#2026",
			old: with(row, "seq", n("1001")), new: with(row, "seq", n("1002")), policy: start(map[string]int64{"*": 1001})},
		{name: "A8 still from 1", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "INVOICE#2026",
			new: with(row, "seq", n("1")), policy: start(map[string]int64{"*": 1001})},
		{name: "A8 the most specific start wins", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "INVOICE#2026",
			new: with(row, "seq", n("5000")), policy: start(map[string]int64{"*": 1001, "INVOICE#*": 5000})},
		{name: "A8 another start", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "INVOICE#2026",
			new: with(row, "seq", n("1000")), policy: start(map[string]int64{"*": 1001}), want: []string{"A8"}},
		{name: "A8 start of another counter", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2026",
			new: with(row, "seq", n("1001")), policy: start(map[string]int64{"INVOICE#*": 1001}), want: []string{"A8"}},
		{name: "A8 PutItem over a counter", roles: "sequences", op: OpPut, pk: "SEQ#t1", sk: "INVOICE#2026",
			old: with(row, "seq", n("1001")), new: with(row, "seq", n("1001")), policy: start(map[string]int64{"*": 1001}), want: []string{"A8"}},
		{name: "A8 no start declared", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "INVOICE#2026",
			new: with(row, "seq", n("1001")), want: []string{"A8"}},
	})
}

func TestRulesCommonTenantWrites(t *testing.T) {
	user := storage.Item{"tenantCode": s("common")}
	enable := func(p *Policy) { p.Enable = []string{"B14"} }
	runModes(t, []ruleCase{
		{name: "B14 own tenant", roles: "keys", pk: "USER#tenant001", sk: "sso#u1", new: storage.Item{}, caller: "tenant001", policy: enable},
		{name: "B14 not enabled", roles: "keys", pk: "USER#common", sk: "sso#u1", new: user, caller: "tenant001"},
		{name: "B14 cross-tenant caller", roles: "keys", pk: "USER#common", sk: "sso#u1", new: user, policy: enable},
		{name: "B14 common caller", roles: "keys", pk: "USER#common", sk: "sso#u1", new: user, caller: "common", policy: enable},
		{name: "B14 tenant writes common", roles: "keys", pk: "USER#common", sk: "sso#u1", new: user, caller: "tenant001", policy: enable, want: []string{"B14"}},
		{name: "B14 tenant deletes common", roles: "keys", op: OpDelete, pk: "USER#common", sk: "sso#u1", old: user, caller: "tenant001", policy: enable, want: []string{"B14"}},
		{name: "B14 case of the tenant", roles: "keys", pk: "USER#Common", sk: "sso#u1", new: storage.Item{}, caller: "tenant001", policy: enable, want: []string{"B14", "A12"}},
	})
}

func TestOptInRules(t *testing.T) {
	require.Error(t, Policy{Roles: RoleKeys, Enable: []string{"A3"}}.Validate(), "only opt-in rules can be enabled")
	require.Error(t, Policy{Roles: RoleKeys, Enable: []string{"X9"}}.Validate())
	require.NoError(t, Policy{Roles: RoleKeys, Enable: []string{"B14"}}.Validate())
	require.False(t, Policy{}.enabled("B14"))
	require.True(t, Policy{Enable: []string{"B14"}}.enabled("B14"))
	require.False(t, Policy{Enable: []string{"B14"}, Disabled: []string{"B14"}}.enabled("B14"))
}

func TestRulesDesign(t *testing.T) {
	// A stand-in for the emulator's design: seed 001's Like carries Like_.
	design := func(item storage.Item) (string, []string) {
		if v, ok := item["GSI1SK"]; ok && strings.HasPrefix(v.Str(), "Like_") {
			return "Like", nil
		}
		return "", []string{"Post (PK={id} SK=post)", "Like (PK={id} SK={post_id} GSI1SK=Like_{created_at})"}
	}
	on := func(p *Policy) { p.Design = true }
	like := storage.Item{"PK": s("6b9b9319"), "SK": s("77fcab6b"), "GSI1SK": s("Like_2021-12-03T10:12:45.033Z")}
	runModes(t, []ruleCase{
		{name: "D1 a like", pk: "6b9b9319", sk: "77fcab6b", new: like, design: design, policy: on},
		{name: "D1 without design", pk: "6b9b9319", sk: "77fcab6b", new: with(like, "GSI1SK", s("2021-12-03")), policy: on},
		{name: "D1 not declared by the table", pk: "6b9b9319", sk: "77fcab6b", new: with(like, "GSI1SK", s("2021-12-03")), design: design,
			policy: func(p *Policy) { p.Latest = "latest" }},
		{name: "D1 a like without its prefix", pk: "6b9b9319", sk: "77fcab6b", new: with(like, "GSI1SK", s("2021-12-03T10:12:45.033Z")),
			design: design, policy: on, want: []string{"D1"}},
		{name: "D1 delete", op: OpDelete, pk: "6b9b9319", sk: "77fcab6b", old: like, design: design, policy: on},
	})
	vs := New0(t).CheckWrite(Write{Table: "Blog", Policy: Policy{Design: true}, Key: Key{PK: "a", SK: "b"},
		New: storage.Item{"GSI1SK": s("x")}, Design: design})
	require.Len(t, vs, 1)
	require.Contains(t, vs[0].Message, "compared with Post (PK={id} SK=post); Like (PK={id} SK={post_id} GSI1SK=Like_{created_at})")
}

func TestCheckRead(t *testing.T) {
	r := New0(t)
	data := Policy{Roles: RoleData}
	require.Nil(t, r.CheckRead("d", data, "GetItem", Key{PK: "ORDER#t1", SK: "ORDER#1"}))
	require.Nil(t, r.CheckRead("c", Policy{Roles: RoleCommand}, "GetItem", Key{PK: "ORDER#t1", SK: "ORDER#1@3"}))
	require.Nil(t, r.CheckRead("d", Policy{Roles: RoleData, Disabled: []string{"A14"}}, "GetItem", Key{PK: "ORDER#t1", SK: "ORDER#1@3"}))
	v := r.CheckRead("d", data, "GetItem", Key{PK: "ORDER#t1", SK: "ORDER#1@3"})
	require.NotNil(t, v)
	require.Equal(t, SeverityWarn, v.Severity)
	require.Equal(t, `GetItem reads the data table with sort key "ORDER#1@3", which carries a version; data rows have none (removeSortKeyVersion gives "ORDER#1")`, v.Message)
	require.Nil(t, Refuse([]Violation{*v}, func(string) Mode { return ModeEnforce }), "a warning refuses no read")
	strict := r.CheckRead("d", Policy{Roles: RoleData, Strict: []string{"A14"}}, "GetItem", Key{PK: "ORDER#t1", SK: "ORDER#1@3"})
	require.NotNil(t, Refuse([]Violation{*strict}, func(string) Mode { return ModeEnforce }), "strict refuses it")
}

func TestExemptCase(t *testing.T) {
	require.True(t, Policy{Exempt: []string{"test"}}.exempt("test"))
	require.False(t, Policy{Exempt: []string{"test"}}.exempt("TEST"), "exempt matches case by default")
	require.True(t, Policy{Exempt: []string{"test"}, ExemptIgnoreCase: true}.exempt("TEST"))
}

func TestPinsLatest(t *testing.T) {
	keys := Key{PK: "pk", SK: "sk"}
	names := map[string]string{"#p": "actualVersion", "#k": "pk"}
	for _, tt := range []struct {
		expr string
		want bool
	}{
		{"actualVersion = :v", true},
		{":v = actualVersion", true},
		{"#p = :v", true},
		{"((#p = :v))", true},
		{"attribute_exists(pk) AND (content <> :c AND #p = :v)", true},
		{"version BETWEEN :a AND :b AND actualVersion = :v", true},
		{"attribute_not_exists(#k)", true},
		{"attribute_not_exists(actualVersion)", true},
		{"attribute_not_exists(sk)", true},
		{"", false},
		{"actualVersion <> :v", false},
		{"actualVersion = :v OR attribute_not_exists(pk)", false},
		{"NOT actualVersion = :v", false},
		{"content = :v", false},
		{"#q = :v", false},
		{"actualVersion = other", false},
		{"attribute_not_exists(content)", false},
		{"(actualVersion = :v", false},
	} {
		require.Equal(t, tt.want, pinsLatest(tt.expr, names, "actualVersion", keys), tt.expr)
	}
}
