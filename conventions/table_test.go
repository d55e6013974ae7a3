package conventions

import (
	"slices"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestCheckTable(t *testing.T) {
	key := func(name string, k storage.Kind) KeyAttribute { return KeyAttribute{Name: name, Type: k.String()} }
	tests := []struct {
		name  string
		roles Roles
		ks    KeySchema
		want  int
	}{
		{"pass", RoleCommand, KeySchema{Partition: key("pk", storage.KindS), Sort: key("sk", storage.KindS)}, 0},
		{"no roles", 0, KeySchema{Partition: key("id", storage.KindS)}, 0},
		{"id hash key", RoleData, KeySchema{Partition: key("id", storage.KindS), Sort: key("sk", storage.KindS)}, 1},
		{"no sort key", RoleKeys, KeySchema{Partition: key("pk", storage.KindS)}, 1},
		{"number sort key", RoleSequences, KeySchema{Partition: key("pk", storage.KindS), Sort: key("sk", storage.KindN)}, 1},
		{"swapped", RoleHistory, KeySchema{Partition: key("sk", storage.KindS), Sort: key("pk", storage.KindS)}, 2},
	}
	for _, tt := range tests {
		vs := CheckTable(tt.roles, tt.ks)
		if len(vs) != tt.want {
			t.Errorf("%s: got %v, want %d violations", tt.name, vs, tt.want)
		}
		for _, v := range vs {
			if v.Rule != "A1" || v.Severity != SeverityError {
				t.Errorf("%s: got %+v, want an A1 error", tt.name, v)
			}
		}
	}
	r, _ := New(Config{})
	vs := r.CheckTable("app-x-data", Policy{Roles: RoleData}, KeySchema{Partition: key("id", storage.KindS)})
	if len(vs) != 2 || vs[0].Table != "app-x-data" {
		t.Errorf("Rules.CheckTable: got %v, want two violations naming the table", vs)
	}
	want := `[conventions A1] data table partition key is id (S); want pk (S)`
	if got := vs[0].Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if vs := r.CheckTable("t", Policy{Roles: RoleData, Disabled: []string{"A1"}}, KeySchema{}); vs != nil {
		t.Errorf("A1 disabled: got %v, want none", vs)
	}
}

func TestCheckStream(t *testing.T) {
	tests := []struct {
		name    string
		roles   Roles
		enabled bool
		view    string
		want    string // "": no violation
	}{
		{"NEW_IMAGE", RoleCommand, true, "NEW_IMAGE", ""},
		{"NEW_AND_OLD_IMAGES", RoleCommand, true, "NEW_AND_OLD_IMAGES", ""},
		{"no stream", RoleCommand, false, "", "[conventions A11] command table's stream is off; the framework reads NewImage from a NEW_IMAGE (or NEW_AND_OLD_IMAGES) stream"},
		{"KEYS_ONLY", RoleCommand | RoleMaster, true, "KEYS_ONLY", "[conventions A11] command table's stream is KEYS_ONLY; the framework reads NewImage from a NEW_IMAGE (or NEW_AND_OLD_IMAGES) stream"},
		{"OLD_IMAGE", RoleCommand, true, "OLD_IMAGE", "[conventions A11] command table's stream is OLD_IMAGE; the framework reads NewImage from a NEW_IMAGE (or NEW_AND_OLD_IMAGES) stream"},
		{"data table without a stream", RoleData, false, "", ""},
	}
	for _, tt := range tests {
		vs := CheckStream(tt.roles, tt.enabled, tt.view)
		got := ""
		if len(vs) == 1 {
			got = vs[0].Error()
			if vs[0].Severity != SeverityWarn {
				t.Errorf("%s: severity %v, want a warning", tt.name, vs[0].Severity)
			}
		}
		if len(vs) > 1 || got != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, vs, tt.want)
		}
	}
	r, _ := New(Config{})
	if vs := r.CheckStream("t-command", Policy{Roles: RoleCommand, Disabled: []string{"A11"}}, false, ""); vs != nil {
		t.Errorf("A11 disabled: got %v, want none", vs)
	}
	if vs := r.CheckStream("t-command", Policy{Roles: RoleCommand}, false, ""); len(vs) != 1 || vs[0].Table != "t-command" {
		t.Errorf("Rules.CheckStream: got %v, want one violation naming the table", vs)
	}
}

func TestCheckTenant(t *testing.T) {
	tests := []struct {
		caller, pk string
		common     []string
		want       bool // a violation
	}{
		{"t1", "ORDER#t1", nil, false},
		{"t1", "ORDER#T1", nil, false},
		{"", "ORDER#t2", nil, false},
		{"t1", "ORDER#t2", nil, true},
		{"t1", "USER#common", nil, false},
		{"t1", "USER#COMMON", nil, false},
		{"t1", "USER#shared", []string{"shared"}, false},
		{"t1", "USER#common", []string{"shared"}, true},
		{"t1", "ORDER", nil, true},
		{"t1", "ORDER#", nil, true},
		{"t1", "LOG#t1#2024-01", nil, true},
	}
	for _, tt := range tests {
		v := CheckTenant(tt.caller, tt.pk, tt.common)
		if (v != nil) != tt.want {
			t.Errorf("CheckTenant(%q, %q, %v): got %v, want violation %v", tt.caller, tt.pk, tt.common, v, tt.want)
		}
		if v != nil && (v.Rule != "B10" || v.Key.PK != tt.pk) {
			t.Errorf("CheckTenant(%q, %q): got %+v, want B10 on the key", tt.caller, tt.pk, v)
		}
	}
	r, _ := New(Config{CommonTenants: []string{"shared"}})
	p := Policy{Roles: RoleData, TenantSegment: 1}
	if v := r.CheckTenant("logs", p, "t1", Key{PK: "LOG#t1#2024-01"}); v != nil {
		t.Errorf("Rules.CheckTenant declared segment: got %v, want nil", v)
	}
	if v := r.CheckTenant("logs", p, "t1", Key{PK: "LOG#shared#2024-01"}); v != nil {
		t.Errorf("Rules.CheckTenant common: got %v, want nil", v)
	}
	v := r.CheckTenant("logs", p, "t1", Key{PK: "LOG#t2#2024-01", SK: "x"})
	if v == nil || v.Table != "logs" || v.Key.SK != "x" {
		t.Fatalf("Rules.CheckTenant other tenant: got %+v, want B10 on logs", v)
	}
	if want := `[conventions B10] caller tenant "t1" may not use tenant "t2" (partition key "LOG#t2#2024-01")`; v.Error() != want {
		t.Errorf("got %q, want %q", v.Error(), want)
	}
	if v := r.CheckTenant("docs", Policy{Latest: "latest"}, "t1", Key{PK: "v1"}); v != nil {
		t.Errorf("table without roles: got %v, want nil", v)
	}
	if v := r.CheckTenant("logs", Policy{Roles: RoleData, Mode: ModeOff}, "t1", Key{PK: "A#t2"}); v != nil {
		t.Errorf("mode off: got %v, want nil", v)
	}
	if v := r.CheckTenant("c", Policy{Roles: RoleCommand, Exempt: []string{"test"}}, "t1", Key{PK: "test", SK: "1"}); v != nil {
		t.Errorf("exempt key: got %v, want nil", v)
	}
}

// TestCheckTenantTTLSetting: the framework's TTL lookup for a table whose
// tenant is not the last pk segment reads MASTER#<last segment>; that read
// names no tenant, so the guard lets it through (issue: B10 denied the
// framework's own lookup under the time-series key).
func TestCheckTenantTTLSetting(t *testing.T) {
	r, err := New(Config{Tables: []TableConfig{
		{Match: "local-demo-log-data", Policy: Policy{Roles: RoleData, TenantSegment: 1}},
		{Match: "*-data", Policy: Policy{Roles: RoleData}},
		{Match: "*master-data", Policy: Policy{Roles: RoleMaster | RoleData}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	master, _, _ := r.Lookup("local-demo-master-data", nil)
	tests := []struct {
		name string
		key  Key
		want bool
	}{
		{"own tenant", Key{PK: "MASTER#t1", SK: "TTL#local-demo-order-data"}, false},
		{"other tenant", Key{PK: "MASTER#t2", SK: "TTL#local-demo-order-data"}, true},
		{"month of a declared table", Key{PK: "MASTER#2026-11", SK: "TTL#local-demo-log-data"}, false},
		{"month of a plain table", Key{PK: "MASTER#2026-11", SK: "TTL#local-demo-order-data"}, true},
		{"other master row", Key{PK: "MASTER#2026-11", SK: "MASTER_DATA#x"}, true},
	}
	for _, tt := range tests {
		v := r.CheckTenant("local-demo-master-data", master, "t1", tt.key)
		if (v != nil) != tt.want {
			t.Errorf("%s: got %v, want violation %v", tt.name, v, tt.want)
		}
	}
	// The declared table's own keys are read at their segment.
	log, _, _ := r.Lookup("local-demo-log-data", nil)
	if v := r.CheckTenant("local-demo-log-data", log, "t1", Key{PK: "LOG#t1#2026-11"}); v != nil {
		t.Errorf("log key: got %v, want nil", v)
	}
}

func TestIsNotExistsCondition(t *testing.T) {
	names := map[string]string{"#pk": "pk", "#sk": "sk", "#k": "pk", "#o": "other"}
	tests := []struct {
		expr string
		want bool
	}{
		{"attribute_not_exists(pk) AND attribute_not_exists(sk)", true},
		{"attribute_not_exists(sk) AND attribute_not_exists(pk)", true},
		{"  attribute_not_exists ( pk )\tand\nattribute_not_exists(sk) ", true},
		{"(attribute_not_exists(pk)) AND (attribute_not_exists(sk))", true},
		{"((attribute_not_exists(pk) AND attribute_not_exists(sk)))", true},
		{"attribute_not_exists(#pk) AND attribute_not_exists(#sk)", true},
		{"attribute_not_exists(pk)", true},
		{"attribute_not_exists(sk)", true},
		{"attribute_not_exists(#k)", true},
		{"", false},
		{"attribute_not_exists(pk) OR attribute_not_exists(sk)", false},
		{"attribute_not_exists(pk) AND attribute_not_exists(pk)", false},
		{"attribute_not_exists(pk) AND attribute_not_exists(sk) AND attribute_not_exists(x)", false},
		{"attribute_exists(pk)", false},
		{"ATTRIBUTE_NOT_EXISTS(pk)", false},
		{"attribute_not_exists(#o)", false},
		{"attribute_not_exists(#missing)", false},
		{"attribute_not_exists(pk) AND", false},
		{"attribute_not_exists(pk", false},
		{"NOT attribute_exists(pk)", false},
		{"attribute_not_exists(pk) AND attribute_not_exists(sk))", false},
		{"(((((((((attribute_not_exists(pk))))))))))", false},
		{"attribute_not_exists(pk.sk)", false},
	}
	for _, tt := range tests {
		if got := IsNotExistsCondition(tt.expr, names); got != tt.want {
			t.Errorf("IsNotExistsCondition(%q): got %v, want %v", tt.expr, got, tt.want)
		}
	}
}

func TestRolesAndModes(t *testing.T) {
	tests := []struct {
		in   string
		want Roles
		ok   bool
	}{
		{"command", RoleCommand, true},
		{"master+command", RoleMaster | RoleCommand, true},
		{"Master, data", RoleMaster | RoleData, true},
		{"keys", RoleKeys, true},
		{"", 0, true},
		{"command+data", 0, false},
		{"master+sequences", 0, false},
		{"tasks", RoleTasks, true},
		{"session", RoleSession, true},
		{"master+session", 0, false},
		{"queue", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseRoles(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseRoles(%q): got %v, %v, want %v ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err == nil {
			if back, _ := ParseRoles(got.String()); back != got {
				t.Errorf("ParseRoles(%q.String()=%q): got %v, want %v", tt.in, got.String(), back, got)
			}
		}
	}
	for _, m := range []Mode{ModeEnforce, ModeWarn, ModeOff} {
		if got, err := ParseMode(m.String()); got != m || err != nil {
			t.Errorf("ParseMode(%q): got %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMode("strict"); err == nil {
		t.Errorf("ParseMode(strict): got nil error")
	}
	if !slices.Equal(strs(RoleMaster|RoleHistory), []string{"master+history"}) {
		t.Errorf("String: got %q", (RoleMaster | RoleHistory).String())
	}
}

func strs(r Roles) []string { return []string{r.String()} }
