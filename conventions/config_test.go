package conventions

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

const sampleConfig = `{
  "tables": [
    {"match": "*-command", "role": "command"},
    {"match": "*-data", "role": "data", "mode": "warn"},
    {"match": "local-app-log-data", "role": "data", "tenantSegment": 1},
    {"match": "local-app-master-command", "role": "master+command", "disable": ["B5", "B6"]},
    {"match": "*sequences", "role": "sequences"},
    {"match": "docs", "latest": "latest", "latestPointer": "actualVersion"}
  ],
  "commonTenants": ["common", "shared"]
}`

func TestParseConfigAndLookup(t *testing.T) {
	c, err := ParseConfig([]byte(sampleConfig))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.CommonTenants, []string{"common", "shared"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CommonTenants: got %v, want %v", got, want)
	}
	tests := []struct {
		table string
		tags  map[string]string
		want  Policy
		ok    bool
	}{
		{"local-app-order-command", nil, Policy{Roles: RoleCommand}, true},
		{"local-app-order-data", nil, Policy{Roles: RoleData, Mode: ModeWarn}, true},
		{"local-app-log-data", nil, Policy{Roles: RoleData, TenantSegment: 1}, true}, // exact beats an earlier glob
		{"local-app-master-command", nil, Policy{Roles: RoleMaster | RoleCommand, Disabled: []string{"B5", "B6"}}, true},
		{"local-app-sequences", nil, Policy{Roles: RoleSequences}, true},
		{"docs", nil, Policy{Latest: "latest", LatestPointer: "actualVersion"}, true},
		{"local-app-session", nil, Policy{}, false},
		{"local-app-session", map[string]string{"env": "dev"}, Policy{}, false},
		{"local-app-order-command", map[string]string{TagRoles: "keys", TagMode: "warn"},
			Policy{Roles: RoleKeys, Mode: ModeWarn}, true}, // tags win
		{"anything", map[string]string{
			TagRoles: "master+data", TagMode: "OFF", TagTenantSegment: "1",
			TagDisable: "B8+B9 A12", TagLatest: "latest", TagLatestPointer: "ptr", TagExempt: "test+warmup",
		}, Policy{Roles: RoleMaster | RoleData, Mode: ModeOff, TenantSegment: 1,
			Disabled: []string{"B8", "B9", "A12"}, Latest: "latest", LatestPointer: "ptr",
			Exempt: []string{"test", "warmup"}}, true},
	}
	for _, tt := range tests {
		got, ok, err := c.Lookup(tt.table, tt.tags)
		if err != nil || ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Lookup(%q, %v): got %+v, %v, %v, want %+v, %v", tt.table, tt.tags, got, ok, err, tt.want, tt.ok)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"not json", `{`},
		{"unknown field", `{"tables": [{"match": "x", "role": "data", "severity": "high"}]}`},
		{"unknown role", `{"tables": [{"match": "x", "role": "queue"}]}`},
		{"repeated match", `{"tables": [{"match": "*-command", "role": "command"}, {"match": "*-command", "role": "data"}]}`},
		{"empty exempt key", `{"tables": [{"match": "x", "role": "command", "exempt": [""]}]}`},
		{"master with tasks", `{"tables": [{"match": "x", "role": "master+tasks"}]}`},
		{"two base roles", `{"tables": [{"match": "x", "role": "command+data"}]}`},
		{"unknown mode", `{"tables": [{"match": "x", "role": "data", "mode": "strict"}]}`},
		{"empty match", `{"tables": [{"role": "data"}]}`},
		{"bad glob", `{"tables": [{"match": "x[", "role": "data"}]}`},
		{"negative segment", `{"tables": [{"match": "x", "role": "data", "tenantSegment": -1}]}`},
		{"unknown rule", `{"tables": [{"match": "x", "role": "data", "disable": ["Z9"]}]}`},
		{"trailing data", `{} {}`},
	}
	for _, tt := range tests {
		if _, err := ParseConfig([]byte(tt.in)); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: got %v, want ErrConfig", tt.name, err)
		}
	}
	if _, err := New(Config{Tables: []TableConfig{{Match: "", Policy: Policy{Roles: RoleData}}}}); !errors.Is(err, ErrConfig) {
		t.Errorf("New with an invalid config: got %v, want ErrConfig", err)
	}
}

func TestParseTagsErrors(t *testing.T) {
	tests := []map[string]string{
		{TagRoles: "queue"},
		{TagRoles: "data", TagMode: "loud"},
		{TagRoles: "data", TagTenantSegment: "one"},
		{TagRoles: "data", TagTenantSegment: "-2"},
		{TagRoles: "data", TagDisable: "A4"},
	}
	for _, tags := range tests {
		if _, ok, err := ParseTags(tags); !errors.Is(err, ErrConfig) || ok {
			t.Errorf("ParseTags(%v): got %v, %v, want ErrConfig", tags, ok, err)
		}
	}
}

func TestCallerTenant(t *testing.T) {
	c, err := ParseConfig([]byte(`{"callers": {"AKID1": "tenant001"}, "crossTenant": ["AKIDADMIN"]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, header string
		tenant      string
		cross       bool
	}{
		{"AKID1", "", "tenant001", false},
		{"AKID1", "tenant002", "tenant001", false}, // the configured tenant wins
		{"AKIDX", "tenant002", "tenant002", false},
		{"AKIDX", "", "", false},
		{"AKIDADMIN", "tenant002", "", true},
	}
	for _, tt := range tests {
		tenant, cross := c.CallerTenant(tt.key, tt.header)
		if tenant != tt.tenant || cross != tt.cross {
			t.Errorf("CallerTenant(%q, %q): got %q, %v; want %q, %v", tt.key, tt.header, tenant, cross, tt.tenant, tt.cross)
		}
	}
}

func TestStrict(t *testing.T) {
	p, ok, err := ParseTags(map[string]string{TagRoles: "command", TagStrict: "A12+A11"})
	if err != nil || !ok {
		t.Fatalf("ParseTags: %v, %v", ok, err)
	}
	w := Write{Table: "x", Policy: p, Op: OpPut, Key: Key{PK: "ORDER#T1", SK: "ORDER#1@1"},
		New: storage.Item{"version": storage.N("1")}, NotExistsCondition: true}
	vs := New0(t).CheckWrite(w)
	if ref := Refuse(vs, func(string) Mode { return ModeEnforce }); ref == nil || ref.Violations[0].Rule != "A12" {
		t.Fatalf("strict A12: got %v, want A12 blocking", vs)
	}
	// A11, a table-level warning, can be made strict too (it once could not).
	if vs := New0(t).CheckStream("x", p, false, ""); len(vs) != 1 || vs[0].Severity != SeverityError {
		t.Fatalf("strict A11: got %v, want an error", vs)
	}
	if _, _, err := ParseTags(map[string]string{TagRoles: "command", TagStrict: "B99"}); !errors.Is(err, ErrConfig) {
		t.Fatalf("unknown strict rule: got %v, want ErrConfig", err)
	}
	c, err := ParseConfig([]byte(`{"tables": [{"match": "*", "role": "data", "strict": ["A12"]}]}`))
	if err != nil || !slices.Equal(c.Tables[0].Strict, []string{"A12"}) {
		t.Fatalf("ParseConfig strict: %v, %v", c, err)
	}
}

// New0 is New of an empty configuration.
func New0(t *testing.T) *Rules {
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDocsConfig: docs/conventions.md shows the framework test's configuration
// (frameworktest/testdata/conventions.json) verbatim, and it does what
// docs/conventions.md says: the most specific entry wins whatever the order.
func TestDocsConfig(t *testing.T) {
	file, err := os.ReadFile("internal/frameworktest/testdata/conventions.json")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../docs/conventions.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```json\n"+string(file)+"```") {
		t.Fatalf("docs/conventions.md no longer shows frameworktest/testdata/conventions.json; update one or the other")
	}
	c, err := ParseConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	exempt := []string{"test"}
	tests := []struct {
		table string
		want  Policy
	}{
		{"local-demo-order-command", Policy{Roles: RoleCommand, Exempt: exempt}},
		{"local-demo-order-data", Policy{Roles: RoleData}},
		{"local-demo-order-history", Policy{Roles: RoleHistory}},
		{"local-demo-master-command", Policy{Roles: RoleMaster | RoleCommand, Exempt: exempt}}, // not *-command
		{"local-demo-master-data", Policy{Roles: RoleMaster | RoleData}},                       // not *-data
		{"local-demo-master-history", Policy{Roles: RoleMaster | RoleHistory}},
		{"local-demo-log-command", Policy{Roles: RoleCommand, TenantSegment: 1, MonthSegment: 2, Exempt: exempt}},
		{"local-demo-log-data", Policy{Roles: RoleData, TenantSegment: 1, MonthSegment: 2}},
		{"local-demo-log-history", Policy{Roles: RoleHistory, TenantSegment: 1, MonthSegment: 2}},
		{"local-demo-sequences", Policy{Roles: RoleSequences}},
		{"local-demo-tasks", Policy{Roles: RoleTasks, Exempt: exempt}},
		{"prod-copy-order-command", Policy{Roles: RoleCommand, Mode: ModeWarn}},  // not *-command
		{"prod-copy-master-command", Policy{Roles: RoleCommand, Mode: ModeWarn}}, // 18 literal characters beat 14
		{"local-demo-session", Policy{}},
	}
	for _, tt := range tests {
		got, _ := c.Policy(tt.table)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Policy(%q): got %+v, want %+v", tt.table, got, tt.want)
		}
	}
}

func TestMostSpecificMatch(t *testing.T) {
	pol := func(seg int) Policy { return Policy{Roles: RoleData, TenantSegment: seg} }
	c := Config{Tables: []TableConfig{
		{Match: "*", Policy: pol(1)},
		{Match: "*-data", Policy: pol(2)},
		{Match: "a-*-data", Policy: pol(3)},
		{Match: "a-log-data", Policy: pol(4)},
		{Match: "b-?-data", Policy: pol(5)},
		{Match: "b-[xy]-data", Policy: pol(6)},
		{Match: `c-\*-data`, Policy: pol(7)},
	}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		table string
		want  int
	}{
		{"z", 1}, {"z-data", 2}, {"a-order-data", 3}, {"a-log-data", 4},
		{"b-x-data", 5}, // ? and [xy] count alike; the earlier wins
		{"c-*-data", 7},
	}
	for _, tt := range tests {
		if got, _ := c.Policy(tt.table); got.TenantSegment != tt.want {
			t.Errorf("Policy(%q): got entry %d, want %d", tt.table, got.TenantSegment, tt.want)
		}
	}
}
