package conventions

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func s(v string) storage.Value { return storage.S(v) }
func n(v string) storage.Value { return storage.N(storage.MustNumber(v)) }

// with returns a copy of base with the given name, value pairs set; a nil
// value (storage.Value{}) removes the attribute.
func with(base storage.Item, kv ...any) storage.Item {
	out := maps.Clone(base)
	if out == nil {
		out = storage.Item{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		name, v := kv[i].(string), kv[i+1].(storage.Value)
		if !v.IsValid() {
			delete(out, name)
			continue
		}
		out[name] = v
	}
	return out
}

var none = storage.Value{}

// ruleCase is one write and the rules it must break (none for a passing
// write).
type ruleCase struct {
	name   string
	roles  string
	seg    int
	op     Op
	pk, sk string
	old    storage.Item
	new    storage.Item
	cond   bool
	exists []string // sort keys present in the partition
	exempt []string
	want   []string
	// policy, when set, completes the policy (the new rules' settings).
	policy func(*Policy)
	caller string // Write.CallerTenant
	design func(storage.Item) (string, []string)
	// command: the sort keys the command table holds in the partition
	// (Write.Command, rule B18); nil: no command table.
	command []string
}

// commandLookup is Write.Command for a case's command rows.
func (tc ruleCase) commandLookup() func(pk, sk string) bool {
	if tc.command == nil {
		return nil
	}
	return func(pk, sk string) bool { return pk == tc.pk && slices.Contains(tc.command, sk) }
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		roles, err := ParseRoles(tc.roles)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w := Write{
			Table: "app-test", Policy: Policy{Roles: roles, TenantSegment: tc.seg, Exempt: tc.exempt},
			Op: tc.op, Key: Key{PK: tc.pk, SK: tc.sk}, Old: tc.old, New: tc.new,
			NotExistsCondition: tc.cond, CallerTenant: tc.caller, Design: tc.design, Command: tc.commandLookup(),
		}
		if tc.policy != nil {
			tc.policy(&w.Policy)
			if err := w.Policy.Validate(); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		if tc.exists != nil {
			w.Exists = func(pk, sk string) bool { return pk == tc.pk && slices.Contains(tc.exists, sk) }
		}
		vs := r.CheckWrite(w)
		got := []string{}
		for _, v := range vs {
			got = append(got, v.Rule)
			if v.Table != "app-test" || v.Key != w.Key {
				t.Errorf("%s: violation %v names %q %v, want the write's table and key", tc.name, v, v.Table, v.Key)
			}
			if !strings.HasPrefix(v.Error(), "[conventions "+v.Rule+"] ") {
				t.Errorf("%s: got message %q, want the rule prefix", tc.name, v.Error())
			}
		}
		want := tc.want
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got rules %v, want %v (%v)", tc.name, got, want, vs)
		}
	}
}

// A valid command row of ORDER#t1 / ORDER#1, version 2.
var cmd = storage.Item{
	"pk": s("ORDER#t1"), "sk": s("ORDER#1@2"), "version": n("2"),
	"id": s("ORDER#t1#ORDER#1"), "tenantCode": s("t1"), "ttl": storage.Null(),
}

func TestRulesKeyShape(t *testing.T) {
	data := storage.Item{"version": n("1"), "id": s("ORDER#t1#ORDER#1"), "tenantCode": s("t1")}
	runRuleCases(t, []ruleCase{
		{name: "A2 pass", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data},
		{name: "A2 empty prefix", roles: "data", pk: "#mbc", sk: "ORDER#1",
			new: with(data, "id", s("#mbc#ORDER#1"), "tenantCode", s("mbc")), want: []string{"A2"}},
		{name: "A2 empty prefix declared segment", roles: "data", seg: 1, pk: "#t1#2024-01", sk: "e1",
			new: with(data, "id", s("#t1#2024-01#e1")), want: []string{"A2"}},
		{name: "A2 no separator", roles: "data", pk: "ORDER", sk: "ORDER#1",
			new: with(data, "id", s("ORDER#ORDER#1"), "tenantCode", none), want: []string{"A2"}},
		{name: "A2 empty tenant", roles: "data", pk: "ORDER#", sk: "ORDER#1",
			new: with(data, "id", s("ORDER##ORDER#1"), "tenantCode", none), want: []string{"A2"}},
		{name: "A2 declared segment missing", roles: "data", seg: 1, pk: "LOG", sk: "x",
			new: with(data, "id", s("LOG#x"), "tenantCode", none), want: []string{"A2"}},
		{name: "A2 keys role", roles: "keys", pk: "TEST", sk: "1700000000", new: storage.Item{}, want: []string{"A2"}},
		{name: "B2 pass declared", roles: "data", seg: 1, pk: "LOG#t1#2024-01", sk: "e1",
			new: with(data, "id", s("LOG#t1#2024-01#e1"))},
		{name: "B2 tenant not last", roles: "data", pk: "LOG#t1#2024-01", sk: "e1",
			new: with(data, "id", s("LOG#t1#2024-01#e1"), "tenantCode", none), want: []string{"B2"}},
		{name: "B2 tenant with #", roles: "keys", pk: "PRODUCT#te#nant", sk: "1", new: storage.Item{}, want: []string{"B2"}},
		{name: "A12 pass", roles: "keys", pk: "PRODUCT#my_tenant", sk: "1", new: storage.Item{}},
		{name: "A12 upper case tenant", roles: "keys", pk: "PRODUCT#MY_TENANT", sk: "1", new: storage.Item{}, want: []string{"A12"}},
		{name: "A12 prefix case is A17's", roles: "keys", pk: "Product#t1", sk: "1", new: storage.Item{}, want: []string{"A17"}},
		{name: "A17 lower-case prefix", roles: "keys", pk: "order#t1", sk: "1", new: storage.Item{}, want: []string{"A17"}},
		{name: "A17 session keys are user#tenant", roles: "session", pk: "user-0001#t1", sk: "local-demo-order#ORDER#1",
			new: storage.Item{"version": n("1"), "ttl": n("1767225600")}},
		{name: "A12 trailing space", roles: "keys", pk: "ORDER#t1 ", sk: "1", new: storage.Item{}, want: []string{"A12"}},
		{name: "A12 the tenant package's TENANT#MBC", roles: "keys", pk: "TENANT#MBC", sk: "MASTER", new: storage.Item{"tenantCode": s("MBC")}},
		{name: "A12 elsewhere MBC", roles: "keys", pk: "ORDER#MBC", sk: "1", new: storage.Item{}, want: []string{"A12"}},
		{name: "A17 ttl# setting", roles: "master+data", pk: "MASTER#t1", sk: "ttl#local-demo-order-data",
			new:  storage.Item{"version": n("1"), "id": s("MASTER#t1#ttl#local-demo-order-data"), "tenantCode": s("t1"), "cpk": s("MASTER#t1"), "csk": s("ttl#local-demo-order-data@1")},
			want: []string{"A17"}},
		{name: "B9 pass", roles: "keys", pk: "P#t1", sk: "1", new: storage.Item{"tenantCode": s("t1")}},
		{name: "B9 absent", roles: "keys", pk: "P#t1", sk: "1", new: storage.Item{}},
		{name: "B9 differs", roles: "keys", pk: "P#t1", sk: "1", new: storage.Item{"tenantCode": s("t2")}, want: []string{"B9"}},
		{name: "B9 not a string", roles: "keys", pk: "P#t1", sk: "1", new: storage.Item{"tenantCode": n("1")}, want: []string{"B9"}},
		{name: "B9 declared segment", roles: "keys", seg: 1, pk: "LOG#t1#2024-01", sk: "1", new: storage.Item{"tenantCode": s("t1")}},
		{name: "A7 pass command", roles: "command", pk: "ORDER#t1", sk: "ORDER#1@2", new: cmd, cond: true},
		{name: "A7 absent", roles: "command", pk: "ORDER#t1", sk: "ORDER#1@2", new: with(cmd, "id", none), cond: true},
		{name: "A7 bare sk", roles: "command", pk: "ORDER#t1", sk: "ORDER#1@2", new: with(cmd, "id", s("ORDER#1")), cond: true, want: []string{"A7"}},
		{name: "A7 versioned id", roles: "command", pk: "ORDER#t1", sk: "ORDER#1@2", new: with(cmd, "id", s("ORDER#t1#ORDER#1@2")), cond: true, want: []string{"A7"}},
		{name: "A7 data", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: with(data, "id", s("x")), want: []string{"A7"}},
		{name: "A7 not a string", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: with(data, "id", n("1")), want: []string{"A7"}},
		{name: "A7 keys role does not check id", roles: "keys", pk: "P#t1", sk: "1", new: storage.Item{"id": s("x")}},
		{name: "B1 pass", roles: "keys", pk: "USER#t1", sk: "user#1", new: storage.Item{}},
		{name: "B1 email sk", roles: "keys", pk: "USER#t1", sk: "user@example.com", new: storage.Item{}, want: []string{"B1"}},
		{name: "B1 master", roles: "master", pk: "MASTER#t1", sk: "MASTER_DATA#a@b", new: storage.Item{}, want: []string{"B1"}},
		{name: "delete of a keys row is not checked", roles: "keys", op: OpDelete, pk: "TEST", sk: "a@b", old: storage.Item{}},
		{name: "exempt partition key", roles: "keys", pk: "test", sk: "a@b", new: storage.Item{}, exempt: []string{"test"}},
	})
}

func TestRulesTTL(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "A10 null", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": storage.Null()}},
		{name: "A10 absent", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{}},
		{name: "A10 seconds", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": n("1767225600")}},
		{name: "A10 zero", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": n("0")}},
		{name: "A10 string date", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": s("2026-01-01")}, want: []string{"A10"}},
		{name: "A10 numeric string", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": s("1767225600")}, want: []string{"A10"}},
		{name: "A10 negative", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": n("-5")}, want: []string{"A10"}},
		{name: "A10 fraction", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": n("1767225600.5")}, want: []string{"A10"}},
		{name: "A10 milliseconds", roles: "keys", pk: "P#t", sk: "1", new: storage.Item{"ttl": n("1767225600000")}, want: []string{"A10"}},
		{name: "A10 bool", roles: "command", pk: "ORDER#t1", sk: "ORDER#1@2", new: with(cmd, "ttl", storage.Bool(true)), cond: true, want: []string{"A10"}},
	})
}

func TestRulesCommand(t *testing.T) {
	pk := "ORDER#t1"
	runRuleCases(t, []ruleCase{
		{name: "A3 pass", roles: "command", pk: pk, sk: "ORDER#1@2", new: cmd, cond: true},
		{name: "A3 no suffix", roles: "command", pk: pk, sk: "ORDER#1", new: cmd, cond: true, want: []string{"A3"}},
		{name: "A3 version mismatch", roles: "command", pk: pk, sk: "ORDER#1@2", new: with(cmd, "version", n("3")), cond: true, want: []string{"A3"}},
		{name: "A3 version missing", roles: "command", pk: pk, sk: "ORDER#1@2", new: with(cmd, "version", none), cond: true, want: []string{"A3"}},
		{name: "A3 version a string", roles: "command", pk: pk, sk: "ORDER#1@2", new: with(cmd, "version", s("2")), cond: true, want: []string{"A3"}},
		{name: "B3 leading zero", roles: "command", pk: pk, sk: "ORDER#1@02", new: cmd, cond: true, want: []string{"B3"}},
		{name: "B3 fraction", roles: "command", pk: pk, sk: "ORDER#1@1.5", new: cmd, cond: true, want: []string{"B3"}},
		{name: "B3 hex", roles: "command", pk: pk, sk: "ORDER#1@0x10", new: cmd, cond: true, want: []string{"B3"}},
		{name: "B3 empty", roles: "command", pk: pk, sk: "ORDER#1@", new: cmd, cond: true, want: []string{"B3"}},
		{name: "B3 junk", roles: "command", pk: pk, sk: "ORDER#1@abc", new: cmd, cond: true, want: []string{"B3"}},
		{name: "B4 zero", roles: "command", pk: pk, sk: "ORDER#1@0", new: cmd, cond: true, want: []string{"B4"}},
		{name: "B4 latest", roles: "command", pk: pk, sk: "ORDER#1@-1", new: cmd, cond: true, want: []string{"B4"}},
		{name: "B4 minus two", roles: "command", pk: pk, sk: "ORDER#1@-2", new: cmd, cond: true, want: []string{"B4"}},
		{name: "B1 email base", roles: "command", pk: pk, sk: "user@example.com@2",
			new: with(cmd, "id", none), cond: true, want: []string{"B1"}},
		{name: "B6 pass with condition", roles: "command", pk: pk, sk: "ORDER#1@2", new: cmd, cond: true},
		{name: "B6 create without condition", roles: "command", pk: pk, sk: "ORDER#1@2", new: cmd, want: []string{"B6"}},
		{name: "B6 overwrite without condition (updateTtl)", roles: "command", pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "ttl", n("1767225600"))},
		{name: "B6 updateTtl racing the version's status update (status, updatedAt read before it)", roles: "command", pk: pk, sk: "ORDER#1@2",
			old: with(cmd, "status", s("finish:FINISHED"), "updatedAt", s("2026-11-26T10:00:01+09:00")),
			new: with(cmd, "status", s("finish:STARTED"), "updatedAt", s("2026-11-26T10:00:00+09:00"), "ttl", n("1767225600"))},
		{name: "B6 updateTtl racing a task token", roles: "command", pk: pk, sk: "ORDER#1@2",
			old: with(cmd, "taskToken", s("token-1")), new: with(cmd, "ttl", n("1767225600"))},
		{name: "B6 updateTtl racing, a table allowing nothing", roles: "command", pk: pk, sk: "ORDER#1@2",
			old: with(cmd, "status", s("finish:FINISHED")), new: with(cmd, "status", s("finish:STARTED"), "ttl", n("1767225600")),
			policy: func(p *Policy) { p.Updatable = []string{} }, want: []string{"B6"}},
		{name: "B6 overwrite changes the version", roles: "command", pk: pk, sk: "ORDER#1@2",
			old: cmd, new: with(cmd, "status", s("x"), "version", n("3")), want: []string{"A3", "B6"}},
		{name: "B6 overwrite changes name", roles: "command", pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "name", s("other")), want: []string{"B6"}},
		{name: "B6 overwrite drops an attribute", roles: "command", pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "tenantCode", none), want: []string{"B6"}},
		{name: "B6 overwrite with the guard still judged", roles: "command", pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "name", s("x")), cond: true, want: []string{"B6"}},
		{name: "B6 overwrite moves attributes in S3 (updateTtl of a large item)", roles: "command", pk: pk, sk: "ORDER#1@2",
			old: with(cmd, "attributes", s("s3://b/ddb/1.json")), new: with(cmd, "attributes", s("s3://b/ddb/2.json"), "ttl", n("1767225600"))},
		{name: "B6 overwrite replaces S3 attributes by a map", roles: "command", pk: pk, sk: "ORDER#1@2",
			old: with(cmd, "attributes", s("s3://b/ddb/1.json")), new: with(cmd, "attributes", storage.M(nil)), want: []string{"B6"}},
		{name: "B6 stream warm-up row exempt", roles: "command", pk: "test", sk: "1767225600", new: storage.Item{}, exempt: []string{"test"}},
		{name: "warm-up row without exemption", roles: "command", pk: "test", sk: "1767225600", new: storage.Item{}, want: []string{"A2", "A3", "B6"}},
		{name: "B12 delete", roles: "command", op: OpDelete, pk: pk, sk: "ORDER#1@2", old: cmd, want: []string{"B12"}},
		{name: "B12 delete of nothing", roles: "command", op: OpDelete, pk: pk, sk: "ORDER#1@2"},
		{name: "B12 delete exempt row", roles: "command", op: OpDelete, pk: "test", sk: "1", old: storage.Item{}, exempt: []string{"test"}},
		{name: "B5 pass previous exists", roles: "command", pk: pk, sk: "ORDER#1@2", new: cmd, cond: true, exists: []string{"ORDER#1@1"}},
		{name: "B5 gap", roles: "command", pk: pk, sk: "ORDER#1@3", new: with(cmd, "version", n("3")), cond: true,
			exists: []string{"ORDER#1@1"}, want: []string{"B5"}},
		{name: "B5 first version needs nothing", roles: "command", pk: pk, sk: "ORDER#1@1", new: with(cmd, "version", n("1")), cond: true, exists: []string{}},
		{name: "B5 unknown without Exists", roles: "command", pk: pk, sk: "ORDER#1@3", new: with(cmd, "version", n("3")), cond: true},
		{name: "B7 pass status update", roles: "command", op: OpUpdate, pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "status", s("finish:FINISHED"))},
		{name: "B7 creates", roles: "command", op: OpUpdate, pk: pk, sk: "ORDER#1@2", new: cmd, want: []string{"B7"}},
		{name: "B7 version changed", roles: "command", op: OpUpdate, pk: pk, sk: "ORDER#1@2", old: with(cmd, "version", n("1")), new: cmd, want: []string{"B7"}},
		{name: "B7 id removed", roles: "command", op: OpUpdate, pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "id", none), want: []string{"B7"}},
	})
}

func TestRulesSystemTables(t *testing.T) {
	task := storage.Item{"id": s("TASK#t1#import#01J"), "tenantCode": s("t1"), "version": n("0")}
	sess := storage.Item{"version": n("3"), "ttl": n("1767225600")}
	runRuleCases(t, []ruleCase{
		{name: "B11 task", roles: "tasks", pk: "TASK#t1", sk: "import#01J", new: task},
		{name: "B11 sfn task", roles: "tasks", pk: "SFN_TASK#t1", sk: "import#01J", new: with(task, "id", s("SFN_TASK#t1#import#01J"))},
		{name: "B11 sub-task", roles: "tasks", pk: "TASK#t1", sk: "import#01J#3", new: with(task, "id", s("TASK#t1#import#01J#3"))},
		{name: "B11 sfn sub-task", roles: "tasks", pk: "SFN_TASK#t1", sk: "bulk#01J#0", new: with(task, "id", s("SFN_TASK#t1#bulk#01J#0"))},
		{name: "B11 sub-task index not a number", roles: "tasks", pk: "SFN_TASK#t1", sk: "bulk#01J#abc", new: with(task, "id", s("SFN_TASK#t1#bulk#01J#abc")), want: []string{"B11"}},
		{name: "B11 task prefix", roles: "tasks", pk: "JOB#t1", sk: "import#01J", new: with(task, "id", none), want: []string{"B11"}},
		{name: "B11 task sk without type", roles: "tasks", pk: "TASK#t1", sk: "01J", new: with(task, "id", none), want: []string{"B11"}},
		{name: "B11 task sk with version", roles: "tasks", pk: "TASK#t1", sk: "import#01J@1", new: with(task, "id", none), want: []string{"B1"}},
		{name: "B11 warm-up task row exempt", roles: "tasks", pk: "test", sk: "1767225600", new: storage.Item{"id": s("test")}, exempt: []string{"test"}},
		{name: "B11 session", roles: "session", pk: "user-1#t1", sk: "order#ORDER#t1#ORDER#1", new: sess},
		{name: "B11 session sk", roles: "session", pk: "user-1#t1", sk: "order", new: sess, want: []string{"B11"}},
		{name: "B11 session no version", roles: "session", pk: "user-1#t1", sk: "order#x", new: with(sess, "version", none), want: []string{"B11"}},
		{name: "B11 session version zero", roles: "session", pk: "user-1#t1", sk: "order#x", new: with(sess, "version", n("0")), want: []string{"B11"}},
		{name: "B11 session no ttl", roles: "session", pk: "user-1#t1", sk: "order#x", new: with(sess, "ttl", none), want: []string{"B11"}},
		{name: "A2 session without tenant", roles: "session", pk: "user-1", sk: "order#x", new: sess, want: []string{"A2"}},
	})
}

func TestRulesHistory(t *testing.T) {
	pk := "ORDER#t1"
	runRuleCases(t, []ruleCase{
		{name: "A6 pass", roles: "history", pk: pk, sk: "ORDER#1@2", new: cmd},
		{name: "A6 no suffix", roles: "history", pk: pk, sk: "ORDER#1", new: cmd, want: []string{"A6"}},
		{name: "A6 version mismatch", roles: "history", pk: pk, sk: "ORDER#1@1", new: cmd, want: []string{"A6"}},
		{name: "B3 history", roles: "history", pk: pk, sk: "ORDER#1@007", new: cmd, want: []string{"B3"}},
		{name: "B4 history", roles: "history", pk: pk, sk: "ORDER#1@0", new: cmd, want: []string{"B4"}},
		{name: "history puts need no condition", roles: "history", pk: pk, sk: "ORDER#1@2", new: cmd},
		{name: "B13 retried publish rewrites the same row", roles: "history", pk: pk, sk: "ORDER#1@2", old: cmd, new: cmd},
		{name: "B13 overwrite changes only ttl", roles: "history", pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "ttl", n("1767225600"))},
		{name: "B13 retried publish, a later ttl", roles: "history", pk: pk, sk: "ORDER#1@2", old: with(cmd, "ttl", n("1767225600")), new: with(cmd, "ttl", n("1767225700"))},
		{name: "B13 ttl-only rewrite expiring it earlier", roles: "history", pk: pk, sk: "ORDER#1@2",
			old: with(cmd, "ttl", n("1767225600")), new: with(cmd, "ttl", n("1700000000")), want: []string{"B13"}},
		{name: "B13 overwrite changes status (history rows have none to race)", roles: "history", pk: pk, sk: "ORDER#1@2", old: cmd,
			new: with(cmd, "status", s("x"), "ttl", n("1767225600")), want: []string{"B13"}},
		{name: "B13 overwrite changes name", roles: "history", pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "name", s("other")), want: []string{"B13"}},
		{name: "B13 update", roles: "history", op: OpUpdate, pk: pk, sk: "ORDER#1@2", old: cmd, new: with(cmd, "status", s("x")), want: []string{"B13"}},
		{name: "B13 delete", roles: "history", op: OpDelete, pk: pk, sk: "ORDER#1@2", old: cmd, want: []string{"B13"}},
		{name: "B13 delete of nothing", roles: "history", op: OpDelete, pk: pk, sk: "ORDER#1@2"},
		{name: "B13 master history delete", roles: "master+history", op: OpDelete, pk: "MASTER#t1", sk: "CAT#x@1", old: cmd, want: []string{"B13"}},
	})
}

func TestRulesData(t *testing.T) {
	pk := "ORDER#t1"
	data := storage.Item{
		"version": n("2"), "id": s("ORDER#t1#ORDER#1"), "tenantCode": s("t1"),
		"cpk": s(pk), "csk": s("ORDER#1@2"),
	}
	runRuleCases(t, []ruleCase{
		{name: "A5 pass", roles: "data", pk: pk, sk: "ORDER#1", new: data},
		{name: "A5 pass without cpk csk", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "cpk", none, "csk", none)},
		{name: "A5 versioned sk", roles: "data", pk: pk, sk: "ORDER#1@2",
			new: with(data, "csk", none), want: []string{"A5"}},
		{name: "A5 no version", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "version", none), want: []string{"A5"}},
		{name: "A5 version zero", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "version", n("0"), "csk", none), want: []string{"A5"}},
		{name: "A5 version a string", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "version", s("2")), want: []string{"A5"}},
		{name: "A5 cpk differs", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "cpk", s("ORDER#t2")), want: []string{"A5"}},
		{name: "A5 csk unversioned (publishSync)", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "csk", s("ORDER#1"))},
		{name: "A5 csk other version", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "csk", s("ORDER#1@1")), want: []string{"A5"}},
		{name: "A5 csk other item", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "csk", s("ORDER#2")), want: []string{"A5"}},
		{name: "B8 pass up", roles: "data", pk: pk, sk: "ORDER#1", old: with(data, "version", n("1")), new: data},
		{name: "B8 pass same (retried sync)", roles: "data", pk: pk, sk: "ORDER#1", old: data, new: data},
		{name: "B8 pass first row at any version", roles: "data", pk: pk, sk: "ORDER#1", new: with(data, "version", n("9"), "csk", none)},
		{name: "B8 down", roles: "data", pk: pk, sk: "ORDER#1", old: with(data, "version", n("10")), new: data, want: []string{"B8"}},
		{name: "B8 down by update", roles: "data", op: OpUpdate, pk: pk, sk: "ORDER#1", old: with(data, "version", n("3")), new: data, want: []string{"B8"}},
		{name: "B8 jump", roles: "data", pk: pk, sk: "ORDER#1", old: with(data, "version", n("3")), new: with(data, "version", n("9"), "csk", s("ORDER#1@9")), want: []string{"B8"}},
	})
}

func TestRulesSequences(t *testing.T) {
	row := storage.Item{"seq": n("5"), "tenantCode": s("t1")}
	runRuleCases(t, []ruleCase{
		{name: "A8 pass update", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2024", old: with(row, "seq", n("4")), new: row},
		{name: "A8 pass first update", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2024", new: with(row, "seq", n("1"))},
		{name: "A8 pass put without seq", roles: "sequences", pk: "SEQ#t1", sk: "ORDER#2024", new: with(row, "seq", none)},
		{name: "A8 wrong prefix", roles: "sequences", op: OpUpdate, pk: "SEQUENCE#t1", sk: "ORDER#2024", old: with(row, "seq", n("4")), new: row, want: []string{"A8"}},
		{name: "A8 put overwrites seq", roles: "sequences", pk: "SEQ#t1", sk: "ORDER#2024", new: row, want: []string{"A8"}},
		{name: "A8 seq a string", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2024", new: with(row, "seq", s("5")), want: []string{"A8"}},
		{name: "A8 seq goes down", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2024", old: with(row, "seq", n("9")), new: row, want: []string{"A8"}},
		{name: "A8 seq jumps", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2024", old: row, new: with(row, "seq", n("9")), want: []string{"A8"}},
		{name: "A8 seq starts high", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER#2024", new: with(row, "seq", n("500")), want: []string{"A8"}},
		{name: "A8 seq back to 1 (rotation)", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER", old: row, new: with(row, "seq", n("1"))},
		{name: "A8 seq untouched", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER", old: row, new: with(row, "name", s("x"))},
		{name: "A8 seq fraction", roles: "sequences", op: OpUpdate, pk: "SEQ#t1", sk: "ORDER", old: row, new: with(row, "seq", n("5.5")), want: []string{"A8"}},
		{name: "A2 sequences without tenant", roles: "sequences", op: OpUpdate, pk: "SEQ#", sk: "ORDER#2024", new: with(row, "tenantCode", none, "seq", n("1")), want: []string{"A2"}},
	})
}

func TestRulesMaster(t *testing.T) {
	setting := func(days storage.Value) storage.Item {
		return storage.Item{"attributes": storage.M(map[string]storage.Value{"days": days}), "tenantCode": s("mbc")}
	}
	ttlSK := TTLSK("local-test-testing_table-command")
	runRuleCases(t, []ruleCase{
		{name: "A9 pass", roles: "master", pk: "MASTER#mbc", sk: ttlSK, new: setting(n("30"))},
		{name: "A9 zero days", roles: "master", pk: "MASTER#mbc", sk: ttlSK, new: setting(n("0"))},
		{name: "A9 no attributes", roles: "master", pk: "MASTER#mbc", sk: ttlSK, new: storage.Item{}},
		{name: "A9 other master rows", roles: "master", pk: "MASTER#mbc", sk: "MASTER_DATA#x", new: storage.Item{"attributes": s("x")}},
		{name: "A9 negative days", roles: "master", pk: "MASTER#mbc", sk: ttlSK, new: setting(n("-5")), want: []string{"A9"}},
		{name: "A9 days a string", roles: "master", pk: "MASTER#mbc", sk: ttlSK, new: setting(s("30")), want: []string{"A9"}},
		{name: "A9 attributes not a map", roles: "master", pk: "MASTER#mbc", sk: ttlSK, new: storage.Item{"attributes": s("{}")}, want: []string{"A9"}},
		{name: "A9 no table", roles: "master", pk: "MASTER#mbc", sk: "TTL#", new: setting(n("1")), want: []string{"A15", "A9"}},
		{name: "A9 wrong prefix", roles: "master", pk: "SETTINGS#mbc", sk: "MASTER_DATA#x", new: storage.Item{}, want: []string{"A9"}},
		{name: "A9 master command row", roles: "master+command", pk: "MASTER#mbc", sk: ttlSK + "@1",
			new: with(setting(n("-1")), "version", n("1")), cond: true, want: []string{"A9"}},
		{name: "A12 master upper case (framework e2e)", roles: "master", pk: "MASTER#MBC", sk: ttlSK,
			new: with(setting(n("30")), "tenantCode", s("MBC")), want: []string{"A12"}},
	})
}

func TestViolationMessages(t *testing.T) {
	r, _ := New(Config{})
	w := Write{Table: "t-command", Policy: Policy{Roles: RoleCommand}, Key: Key{PK: "A#t", SK: "X"},
		New: storage.Item{"version": n("1")}, NotExistsCondition: true}
	vs := r.CheckWrite(w)
	if len(vs) != 1 {
		t.Fatalf("got %v, want one violation", vs)
	}
	if got, want := vs[0].Error(), `[conventions A3] command sort key "X" has no @version suffix`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !vs[0].Blocks(ModeEnforce) || vs[0].Blocks(ModeWarn) {
		t.Errorf("A3 blocks: got enforce %v warn %v, want true false", vs[0].Blocks(ModeEnforce), vs[0].Blocks(ModeWarn))
	}
}

func TestModesAndDisabledRules(t *testing.T) {
	r, _ := New(Config{})
	base := Write{Table: "t", Key: Key{PK: "A#t", SK: "X"}, New: storage.Item{"version": n("1")}}
	tests := []struct {
		name      string
		policy    Policy
		wantRules []string
		blocking  bool
	}{
		{"enforce blocks an error", Policy{Roles: RoleCommand}, []string{"A3", "B6"}, true},
		{"warn never blocks", Policy{Roles: RoleCommand, Mode: ModeWarn}, []string{"A3", "B6"}, false},
		{"off checks nothing", Policy{Roles: RoleCommand, Mode: ModeOff}, nil, false},
		{"disabled rules", Policy{Roles: RoleCommand, Disabled: []string{"A3", "B6"}}, nil, false},
		{"no roles", Policy{}, nil, false},
	}
	for _, tt := range tests {
		w := base
		w.Policy = tt.policy
		vs := r.CheckWrite(w)
		var got []string
		for _, v := range vs {
			got = append(got, v.Rule)
		}
		if !slices.Equal(got, tt.wantRules) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.wantRules)
		}
		if b := Refuse(vs, func(string) Mode { return tt.policy.Mode }) != nil; b != tt.blocking {
			t.Errorf("%s: blocking got %v, want %v", tt.name, b, tt.blocking)
		}
	}
}

// BenchmarkCheckWrite measures a passing and a failing command write, the
// cost an opted-in table adds to each PutItem.
func BenchmarkCheckWrite(b *testing.B) {
	r, _ := New(Config{})
	pass := Write{Table: "app-order-command", Policy: Policy{Roles: RoleCommand},
		Key: Key{PK: "ORDER#t1", SK: "ORDER#1@2"}, New: cmd, NotExistsCondition: true,
		Exists: func(pk, sk string) bool { return true }}
	fail := pass
	fail.Key.SK = "ORDER#1"
	for _, bc := range []struct {
		name string
		w    Write
	}{{"pass", pass}, {"violation", fail}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.CheckWrite(bc.w)
			}
		})
	}
}

func TestTransactionCountsItsOwnPuts(t *testing.T) {
	r, _ := New(Config{})
	put := func(sk, version string) Write {
		return Write{Table: "c", Policy: Policy{Roles: RoleCommand}, Key: Key{PK: "ORDER#t1", SK: sk},
			New: with(cmd, "sk", s(sk), "version", n(version)), NotExistsCondition: true,
			Exists: func(pk, sk string) bool { return sk == "ORDER#1@1" }}
	}
	tests := []struct {
		name string
		ws   []Write
		want []string
	}{
		{"previous version in the table", []Write{put("ORDER#1@2", "2")}, nil},
		{"previous version in the transaction", []Write{put("ORDER#1@2", "2"), put("ORDER#1@3", "3")}, nil},
		{"gap", []Write{put("ORDER#1@2", "2"), put("ORDER#1@4", "4")}, []string{"B5"}},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range r.CheckTransaction(tt.ws) {
			got = append(got, v.Rule)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
