package conventions

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The rules against the seeds' sentences, one rule at a time, on Write
// values (the emulator's tests drive the same cases through the API).

// rulesOf is the rules that w breaks, in order.
func rulesOf(t *testing.T, r *Rules, w Write) []string {
	t.Helper()
	got := []string{}
	for _, v := range r.CheckWrite(w) {
		got = append(got, v.Rule)
	}
	return got
}

func seedRules(t *testing.T) *Rules {
	t.Helper()
	r, err := New(Config{CommonTenants: []string{"common"}})
	require.NoError(t, err)
	return r
}

var seedNow = time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)

// history rows of ORDER#t1 / ORDER#1, version 1, as HistoryService.publish
// copies the data row.
var hist = storage.Item{"pk": s("ORDER#t1"), "sk": s("ORDER#1@1"), "version": n("1"), "id": s("ORDER#t1#ORDER#1"),
	"tenantCode": s("t1"), "cpk": s("ORDER#t1"), "csk": s("ORDER#1@1"), "ttl": storage.Null()}

// TestRulesHistoryExpiresAtOnce is rule B13. Seed 000 reads a version back
// from the history ("const historicalItem = await historyService.getItem({
// pk, sk: skWithVersion });"): a rewrite that gives a row without ttl one
// in the past would expire the record at once. HistoryService.publish's
// ttl is now plus its TTL setting's days, or null.
func TestRulesHistoryExpiresAtOnce(t *testing.T) {
	r := seedRules(t)
	w := Write{Table: "app-history", Policy: Policy{Roles: RoleHistory}, Op: OpPut, Key: Key{PK: "ORDER#t1", SK: "ORDER#1@1"}, Now: seedNow}
	at := func(d time.Duration) storage.Value { return n(strconv.FormatInt(seedNow.Add(d).Unix(), 10)) }
	for _, tc := range []struct {
		name string
		old  storage.Item
		ttl  storage.Value
		want []string
	}{
		{"NULL to an hour ago", hist, at(-time.Hour), []string{"B13"}},
		{"none to an hour ago", with(hist, "ttl", none), at(-time.Hour), []string{"B13"}},
		{"NULL to 90 days on (a retried publish after a TTL setting appeared)", hist, at(90 * 24 * time.Hour), []string{}},
		{"NULL kept", hist, storage.Null(), []string{}},
		{"90 days on to an hour ago", with(hist, "ttl", at(90*24*time.Hour)), at(-time.Hour), []string{"B13"}},
	} {
		w.Old, w.New = tc.old, with(hist, "ttl", tc.ttl)
		require.Equal(t, tc.want, rulesOf(t, r, w), tc.name)
	}
	w.Old, w.New, w.Now = hist, with(hist, "ttl", at(-time.Hour)), time.Time{}
	require.Equal(t, []string{}, rulesOf(t, r, w), "no clock: not judged")
}

// TestRulesHistoryHasCommand is rule B18 on history rows. Seed 000: the
// command table "Stores all versions with @version suffix"; the history
// copies versions the log held, so a history row @7 beside a log of @1
// and @2 records a version that never was.
func TestRulesHistoryHasCommand(t *testing.T) {
	r := seedRules(t)
	log := []string{"ORDER#1@1", "ORDER#1@2"}
	command := func(pk, sk string) bool { return pk == "ORDER#t1" && slices.Contains(log, sk) }
	p := Policy{Roles: RoleHistory}
	require.Equal(t, "app-order-command", p.CommandTable("app-order-history"))
	w := Write{Table: "app-order-history", Policy: p, Op: OpPut, Command: command}
	at := func(v string) storage.Item {
		return with(hist, "sk", s("ORDER#1@"+v), "version", n(v), "csk", s("ORDER#1@"+v))
	}
	for _, tc := range []struct {
		name string
		item storage.Item
		old  storage.Item
		want []string
	}{
		{"@1, in the log", at("1"), nil, []string{}},
		{"@7, not in the log", at("7"), nil, []string{"B18"}},
		{"@7 without csk", with(at("7"), "csk", none), nil, []string{"B18"}},
		{"@7, publishSync's copy (csk the bare sk)", with(at("7"), "csk", s("ORDER#1")), nil, []string{}},
		{"@7 rewritten (its command row may have expired)", at("7"), at("7"), []string{}},
	} {
		w.Key, w.New, w.Old = Key{PK: "ORDER#t1", SK: tc.item["sk"].Str()}, tc.item, tc.old
		require.Equal(t, tc.want, rulesOf(t, r, w), tc.name)
	}
	w.Command = nil
	w.Key, w.New, w.Old = Key{PK: "ORDER#t1", SK: "ORDER#1@7"}, at("7"), nil
	require.Equal(t, []string{}, rulesOf(t, r, w), "no command table in the namespace")
}

// TestRulesDataKeepsLinks is rule A5. Seed 000: "Data table: Stores
// latest version only (no version suffix)"; DataService.publish writes
// cpk and csk on every data row, naming the command version it syncs, so
// a write that drops them cuts the row from its version.
func TestRulesDataKeepsLinks(t *testing.T) {
	r := seedRules(t)
	data := storage.Item{"pk": s("ORDER#t1"), "sk": s("ORDER#1"), "version": n("2"), "id": s("ORDER#t1#ORDER#1"),
		"tenantCode": s("t1"), "cpk": s("ORDER#t1"), "csk": s("ORDER#1@2")}
	w := Write{Table: "app-data", Policy: Policy{Roles: RoleData}, Op: OpUpdate, Key: Key{PK: "ORDER#t1", SK: "ORDER#1"}, Old: data}
	for _, tc := range []struct {
		name string
		new  storage.Item
		want []string
	}{
		{"REMOVE cpk, csk", with(data, "cpk", none, "csk", none), []string{"A5", "A5"}},
		{"REMOVE csk", with(data, "csk", none), []string{"A5"}},
		{"SET name", with(data, "name", s("x")), []string{}},
	} {
		w.New = tc.new
		require.Equal(t, tc.want, rulesOf(t, r, w), tc.name)
	}
}

// TestRulesMasterTTLSetting is rules B18 and A5 on a master data table's
// TTL setting. Seed 000: "テーブルレベルTTL設定用のTTLソートキー" (ttlSk
// gives TTL#<table>) under masterPk: TtlService reads the setting from the
// data table alone, and the framework's e2e suite puts settings there
// directly ({pk: 'MASTER#MBC', sk: 'TTL#<table>', version: 0, attributes:
// {days: 90}}), with no command row. Other master rows stay judged.
func TestRulesMasterTTLSetting(t *testing.T) {
	r := seedRules(t)
	p := Policy{Roles: RoleMaster | RoleData}
	require.Equal(t, "app-master-command", p.CommandTable("app-master-data"))
	noCommand := func(string, string) bool { return false }
	seeded := storage.Item{"pk": s("MASTER#t1"), "sk": s("TTL#app-order-data"), "id": s("MASTER#t1#TTL#app-order-data"),
		"type": s("TTL"), "version": n("0"), "attributes": storage.M(map[string]storage.Value{"days": n("90")})}
	w := Write{Table: "app-master-data", Policy: p, Op: OpPut, Command: noCommand}
	for _, tc := range []struct {
		name string
		item storage.Item
		want []string
	}{
		{"seeded: version 0, no cpk, csk", seeded, []string{}},
		{"synced shape, no command row", with(seeded, "version", n("1"), "cpk", s("MASTER#t1"), "csk", s("TTL#app-order-data@1")), []string{}},
		{"version 0 with a csk: no seed", with(seeded, "cpk", s("MASTER#t1"), "csk", s("TTL#app-order-data@1")), []string{"A5"}},
		{"a setting of another kind", with(seeded, "sk", s("MASTER_SETTING#currency"), "id", s("MASTER#t1#MASTER_SETTING#currency"),
			"version", n("1"), "cpk", s("MASTER#t1"), "csk", s("MASTER_SETTING#currency@1")), []string{"B18"}},
	} {
		w.Key, w.New = Key{PK: "MASTER#t1", SK: tc.item["sk"].Str()}, tc.item
		require.Equal(t, tc.want, rulesOf(t, r, w), tc.name)
	}
}

// TestRulesTimeSeriesEventID is rule A13. Seed 000: "SK:
// <timestamp>#<eventId>", built by "const sk =
// `${timestamp.toISOString()}${KEY_SEPARATOR}${eventId}`;".
func TestRulesTimeSeriesEventID(t *testing.T) {
	r := seedRules(t)
	w := Write{Table: "app-log-data", Policy: Policy{Roles: RoleKeys, TenantSegment: 1, MonthSegment: 2}, Op: OpPut}
	for sk, want := range map[string][]string{
		"2024-01-15T10:30:00Z#evt001": {},
		"2024-01-15T10:30:00Z":        {"A13"},
		"2024-01-15T10:30:00Z#":       {"A13", "A15"}, // an empty segment is A15's too
	} {
		w.Key, w.New = Key{PK: "LOG#tenant001#2024-01", SK: sk}, storage.Item{}
		require.Equal(t, want, rulesOf(t, r, w), sk)
	}
}

// TestRulesUserTenantAnyCase is rule B17. Seed 000: "PK:
// USER_TENANT#<commonTenant>", "SK: <tenantCode>#<userCode>"; the prefix
// spelt in another case is still the common tenant's partition to the
// tenant guard, so it is judged alike.
func TestRulesUserTenantAnyCase(t *testing.T) {
	r := seedRules(t)
	w := Write{Table: "app-user-data", Policy: Policy{Roles: RoleKeys}, Op: OpPut, CallerTenant: "tenant001"}
	for _, pk := range []string{"USER_TENANT#common", "user_tenant#common"} {
		w.Key, w.New = Key{PK: pk, SK: "tenant002#user123"}, storage.Item{}
		require.Contains(t, rulesOf(t, r, w), "B17", pk)
		w.Key.SK = "tenant001#user123"
		require.NotContains(t, rulesOf(t, r, w), "B17", pk)
	}
}

// TestRulesCounterBelowOne is rule A8. The framework's increment,
// if_not_exists(seq, 0) + 1, gives 1 first; the master package skips a
// counter at 0 ("Skipping sequence copy: JCCI sequence is 0").
func TestRulesCounterBelowOne(t *testing.T) {
	r := seedRules(t)
	row := storage.Item{"pk": s("SEQ#t1"), "sk": s("ORDER#2026")}
	w := Write{Table: "app-sequences", Policy: Policy{Roles: RoleSequences}, Op: OpUpdate, Key: Key{PK: "SEQ#t1", SK: "ORDER#2026"}}
	for _, tc := range []struct {
		name     string
		old, new storage.Value
		want     []string
	}{
		{"stored at 0, left alone", n("0"), n("0"), []string{"A8"}},
		{"created at 0", none, n("0"), []string{"A8"}},
		{"stored at 5, left alone", n("5"), n("5"), []string{}},
		{"negative", n("3"), n("-1"), []string{"A8"}},
		{"created at 1", none, n("1"), []string{}},
	} {
		w.Old, w.New = nil, with(row, "seq", tc.new)
		if tc.old.IsValid() {
			w.Old = with(row, "seq", tc.old)
		}
		require.Equal(t, tc.want, rulesOf(t, r, w), tc.name)
	}
}

// TestRulesIndexKnownTenant is rule B16 and the index guard. Seed 000:
// "マルチテナント分離のために、常にPKにテナントコードを含めます", and
// shared data lives under the common tenant ("テナント間で共有されるデ
// ータには共通テナントコードを使用します"): an index key names its item's
// tenant and no other tenant, and a tenant's caller Queries the index
// partitions that name its tenant alone.
func TestRulesIndexKnownTenant(t *testing.T) {
	r := seedRules(t)
	known := func(t string) bool { return slices.Contains([]string{"mbc", "acme", "common"}, t) }
	w := Write{Table: "products", Policy: Policy{Roles: RoleKeys}, Op: OpPut, Key: Key{PK: "PRODUCT#mbc", SK: "p1"},
		IndexKeys: []IndexKey{{Index: "category-index", Attr: "categoryKey"}}, KnownTenant: known}
	for key, want := range map[string][]string{
		"CATEGORY#mbc#toys":   {},
		"CATEGORY#MBC#toys":   {},
		"CATEGORY#common#toy": {},
		"CATEGORY#mbc#acme":   {"B16"},
		"CATEGORY#acme#toys":  {"B16"},
		"CATEGORY#toys":       {"B16"},
	} {
		w.New = storage.Item{"categoryKey": s(key)}
		require.Equal(t, want, rulesOf(t, r, w), key)
	}
	w.KnownTenant, w.New = nil, storage.Item{"categoryKey": s("CATEGORY#mbc#acme")}
	require.Equal(t, []string{}, rulesOf(t, r, w), "acme not known: not judged")

	p := Policy{Roles: RoleKeys}
	for _, tc := range []struct {
		caller, value string
		allowed       bool
	}{
		{"mbc", "CATEGORY#mbc#toys", true},
		{"mbc", "CATEGORY#common#toys", true},
		{"mbc", "CATEGORY#acme#toys", false},
		{"acme", "CATEGORY#mbc#acme", false},
		{"mbc", "toys", false},
	} {
		v := r.CheckIndexTenant("products", p, tc.caller, "category-index", tc.value, known)
		require.Equal(t, tc.allowed, v == nil, "%s reads %s: %v", tc.caller, tc.value, v)
		if v != nil {
			require.Equal(t, "B10", v.Rule)
		}
	}
	require.Nil(t, r.CheckIndexTenant("products", p, "", "category-index", "CATEGORY#acme#toys", known), "a caller bound to no tenant")
}

// TestRulesLatestPinnedWithoutText is rule L1 for a condition without
// text. Seed 002: "データの一貫性を確保するために、latestアイテムを更新
// する際には条件付き書き込みやトランザクションを検討してください。" A
// PartiQL UPDATE's WHERE clause (evaluated by Holds) pins the latest item
// when it fails on the item moved by another writer; a PartiQL INSERT of
// the first latest item fails when it exists.
func TestRulesLatestPinnedWithoutText(t *testing.T) {
	r := seedRules(t)
	p := Policy{Latest: "latest"}
	v1 := storage.Item{"documentVersion": s("v1"), "content": s("a")}
	v2 := storage.Item{"documentVersion": s("v2"), "content": s("b")}
	latest := storage.Item{"documentVersion": s("latest"), "content": s("a"), "actualVersion": s("v1")}
	moved := storage.Item{"documentVersion": s("latest"), "content": s("b"), "actualVersion": s("v2")}
	get := func(pk, _ string) storage.Item {
		return map[string]storage.Item{"v1": v1, "v2": v2}[pk]
	}
	pinned := func(it storage.Item) bool { return it["actualVersion"].Str() == "v1" }
	keyOnly := func(it storage.Item) bool { _, ok := it["documentVersion"]; return ok }
	w := Write{Table: "docs", Policy: p, Op: OpUpdate, Key: Key{PK: "latest"}, Names: Key{PK: "documentVersion"},
		Old: latest, New: moved, Get: get}
	for _, tc := range []struct {
		name  string
		holds func(storage.Item) bool
		want  []string
	}{
		{"WHERE documentVersion = 'latest' AND actualVersion = 'v1'", pinned, []string{}},
		{"WHERE documentVersion = 'latest'", keyOnly, []string{"L1"}},
		{"no condition", nil, []string{"L1"}},
	} {
		w.Holds = tc.holds
		require.Equal(t, tc.want, rulesOf(t, r, w), tc.name)
	}
	first := Write{Table: "docs", Policy: p, Op: OpPut, Key: Key{PK: "latest"}, Names: Key{PK: "documentVersion"},
		New: latest, Get: get, NotExistsCondition: true}
	require.Equal(t, []string{}, rulesOf(t, r, first), "a PartiQL INSERT of the first latest item")
}
