package conventions

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestRulesUserTenant: seed 000's USER_TENANT#common / <tenantCode>#<userCode>
// rows, written by a caller bound to tenant001.
func TestRulesUserTenant(t *testing.T) {
	row := func(sk string) storage.Item {
		return storage.Item{"version": n("1"), "id": s("USER_TENANT#common#" + sk), "tenantCode": s("common")}
	}
	runModes(t, []ruleCase{
		{name: "B17 own tenant", roles: "data", pk: "USER_TENANT#common", sk: "tenant001#user123", new: row("tenant001#user123"), caller: "tenant001"},
		{name: "B17 own tenant, other case", roles: "data", pk: "USER_TENANT#common", sk: "Tenant001#user123", new: row("Tenant001#user123"), caller: "tenant001"},
		{name: "B17 own tenant, command row", roles: "command", pk: "USER_TENANT#common", sk: "tenant001#user123@1",
			new: row("tenant001#user123"), caller: "tenant001", cond: true},
		{name: "B17 another tenant", roles: "data", pk: "USER_TENANT#common", sk: "tenant002#user123", new: row("tenant002#user123"),
			caller: "tenant001", want: []string{"B17"}},
		{name: "B17 another tenant, command row", roles: "command", pk: "USER_TENANT#common", sk: "tenant002#user123@1",
			new: row("tenant002#user123"), caller: "tenant001", cond: true, want: []string{"B17"}},
		{name: "B17 detaching another tenant's user", roles: "keys", op: OpDelete, pk: "USER_TENANT#common", sk: "tenant002#user123",
			old: row("tenant002#user123"), caller: "tenant001", want: []string{"B17"}},
		{name: "B17 no tenant in the sort key", roles: "keys", pk: "USER_TENANT#common", sk: "user123", new: storage.Item{},
			caller: "tenant001", want: []string{"B17"}},
		{name: "B17 caller bound to no tenant", roles: "data", pk: "USER_TENANT#common", sk: "tenant002#user123", new: row("tenant002#user123")},
		{name: "B17 caller bound to the common tenant", roles: "data", pk: "USER_TENANT#common", sk: "tenant002#user123",
			new: row("tenant002#user123"), caller: "common"},
		{name: "B17 users are not associations", roles: "keys", pk: "USER#common", sk: "sso#user123", new: storage.Item{}, caller: "tenant001"},
		{name: "B17 own tenant's partition", roles: "keys", pk: "USER_TENANT#tenant001", sk: "tenant002#user123", new: storage.Item{}, caller: "tenant001"},
		{name: "B17 disabled", roles: "data", pk: "USER_TENANT#common", sk: "tenant002#user123", new: row("tenant002#user123"),
			caller: "tenant001", policy: func(p *Policy) { p.Disabled = []string{"B17"} }},
	})
}

// TestRulesDataCommand: a data row created or moved to version N has the
// command row sk@N (rule B18).
func TestRulesDataCommand(t *testing.T) {
	data := func(v, csk string) storage.Item {
		return storage.Item{"version": n(v), "id": s("ORDER#t1#ORDER#1"), "tenantCode": s("t1"), "cpk": s("ORDER#t1"), "csk": s(csk)}
	}
	runModes(t, []ruleCase{
		{name: "B18 async sync of v1", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("1", "ORDER#1@1"), command: []string{"ORDER#1@1"}},
		{name: "B18 publishSync (csk unversioned)", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("3", "ORDER#1"),
			old: data("2", "ORDER#1"), command: []string{"ORDER#1@1", "ORDER#1@2", "ORDER#1@3"}},
		{name: "B18 0.1.48-beta.0's publishSync (no command row)", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("1", "ORDER#1"),
			command: []string{}},
		{name: "B18 no csk", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: with(data("1", "ORDER#1@1"), "csk", none),
			command: []string{"ORDER#1@1"}, want: []string{"B18"}},
		{name: "B18 a retried sync of the same version", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("2", "ORDER#1@2"),
			old: data("2", "ORDER#1@2"), command: []string{}},
		{name: "B18 no command table", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("1", "ORDER#1@1")},
		{name: "B18 created without a command row", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("1", "ORDER#1@1"),
			command: []string{}, want: []string{"B18"}},
		{name: "B18 moved to a version the command table lacks", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("3", "ORDER#1@3"),
			old: data("2", "ORDER#1@2"), command: []string{"ORDER#1@1", "ORDER#1@2"}, want: []string{"B18"}},
		{name: "B18 another entity's command row", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("1", "ORDER#1@1"),
			command: []string{"ORDER#2@1"}, want: []string{"B18"}},
		{name: "B18 disabled", roles: "data", pk: "ORDER#t1", sk: "ORDER#1", new: data("1", "ORDER#1@1"), command: []string{},
			policy: func(p *Policy) { p.Disabled = []string{"B18"} }},
	})
	require.Equal(t, "local-demo-order-command", Policy{Roles: RoleData}.CommandTable("local-demo-order-data"))
	require.Equal(t, "local-demo-master-command", Policy{Roles: RoleData | RoleMaster}.CommandTable("local-demo-master-data"))
	require.Empty(t, Policy{Roles: RoleCommand}.CommandTable("local-demo-order-command"))
	require.Empty(t, Policy{Roles: RoleData}.CommandTable("orders"), "a name without the suffix names no command table")
	require.Empty(t, Policy{Roles: RoleData, Mode: ModeOff}.CommandTable("local-demo-order-data"))
	require.Empty(t, Policy{Roles: RoleData, Disabled: []string{"B18"}}.CommandTable("local-demo-order-data"))
}

// TestRulesDataCommandInTransaction: the command row a transaction puts
// counts for the data row it writes with it.
func TestRulesDataCommandInTransaction(t *testing.T) {
	r := New0(t)
	data := Write{Table: "local-demo-order-data", Policy: Policy{Roles: RoleData}, Op: OpPut, Key: Key{PK: "ORDER#t1", SK: "ORDER#1"},
		New:     storage.Item{"version": n("1"), "id": s("ORDER#t1#ORDER#1"), "tenantCode": s("t1"), "cpk": s("ORDER#t1"), "csk": s("ORDER#1@1")},
		Command: func(string, string) bool { return false }}
	command := Write{Table: "local-demo-order-command", Policy: Policy{Roles: RoleCommand}, Op: OpPut, Key: Key{PK: "ORDER#t1", SK: "ORDER#1@1"},
		New: with(cmd, "sk", s("ORDER#1@1"), "version", n("1")), NotExistsCondition: true}
	require.Empty(t, r.CheckTransaction([]Write{command, data}))
	vs := r.CheckTransaction([]Write{data})
	require.Len(t, vs, 1)
	require.Equal(t, "B18", vs[0].Rule)
	require.Equal(t, `data row version 1 has no command row: table local-demo-order-command holds no pk "ORDER#t1" sk "ORDER#1@1"; a data row is the sync of a stored command version`, vs[0].Message)
}

// TestRulesDesignReplaces: seed 001's Comment and Like share the key
// shape; a write that turns one into the other is refused (rule D2).
func TestRulesDesignReplaces(t *testing.T) {
	// A stand-in for the emulator's design: the entity is GSI1SK's prefix.
	design := func(item storage.Item) (string, []string) {
		for _, e := range []string{"Comment", "Like"} {
			if v, ok := item["GSI1SK"]; ok && strings.HasPrefix(v.Str(), e+"_") {
				return e, nil
			}
		}
		return "", []string{"Comment (...)", "Like (...)"}
	}
	on := func(p *Policy) { p.Design = true }
	comment := storage.Item{"PK": s("81fcab6a"), "SK": s("77fcab6b"), "GSI1SK": s("Comment_2021-12-03T10:11:44.137Z"), "content": s("面白いですね")}
	like := storage.Item{"PK": s("81fcab6a"), "SK": s("77fcab6b"), "GSI1SK": s("Like_2021-12-03T10:12:45.033Z")}
	runModes(t, []ruleCase{
		{name: "D2 a new like", pk: "81fcab6a", sk: "77fcab6b", new: like, design: design, policy: on},
		{name: "D2 a comment edited", pk: "81fcab6a", sk: "77fcab6b", old: comment, new: with(comment, "content", s("なるほど")), design: design, policy: on},
		{name: "D2 a like over a like (an update: cannot tell)", pk: "81fcab6a", sk: "77fcab6b", old: like, new: like, design: design, policy: on},
		{name: "D2 a like over a comment", pk: "81fcab6a", sk: "77fcab6b", old: comment, new: like, design: design, policy: on, want: []string{"D2"}},
		{name: "D2 an update turning a comment into a like", op: OpUpdate, pk: "81fcab6a", sk: "77fcab6b", old: comment,
			new: with(comment, "GSI1SK", like["GSI1SK"]), design: design, policy: on, want: []string{"D2"}},
		{name: "D2 over an item of no entity (not judged)", pk: "81fcab6a", sk: "77fcab6b", old: storage.Item{"PK": s("81fcab6a")}, new: like,
			design: design, policy: on},
		{name: "D2 delete", op: OpDelete, pk: "81fcab6a", sk: "77fcab6b", old: comment, design: design, policy: on},
		{name: "D2 table without design", pk: "81fcab6a", sk: "77fcab6b", old: comment, new: like, design: design,
			policy: func(p *Policy) { p.Latest = "latest" }},
	})
	vs := New0(t).CheckWrite(Write{Table: "Blog", Policy: Policy{Design: true}, Key: Key{PK: "81fcab6a", SK: "77fcab6b"},
		Old: comment, New: like, Design: design})
	require.Len(t, vs, 1)
	require.Equal(t, `PutItem turns a Comment into a Like under the same primary key ("81fcab6a", "77fcab6b"): the Comment is lost; give each entity's keys its own prefix, or condition the write on attribute_not_exists`, vs[0].Message)
}
