package conventions_test

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func Example() {
	keys, _ := conventions.Hierarchy("ORDER", "tenant001", "ORDER_ITEM", "01HX7MBJK3V9WQBZ7XNDK5ZT2M", "001")
	sk, _ := conventions.VersionedSortKey(keys.SK, 1)
	fmt.Println(keys.PK)
	fmt.Println(sk)
	fmt.Println(keys.ID)

	// The framework's helper cuts at the last '@'; the checked one refuses.
	fmt.Println(conventions.GenerateID("USER#t1", "user@example.com"))
	_, err := conventions.NewID("USER#t1", "user@example.com")
	fmt.Println(err)
	// Output:
	// ORDER#tenant001
	// ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#001@1
	// ORDER#tenant001#ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#001
	// USER#t1#user
	// conventions: version suffix is not a canonical decimal: "user@example.com"
}

func ExampleRules_CheckWrite() {
	cfg, _ := conventions.ParseConfig([]byte(`{"tables": [{"match": "*-command", "role": "command"}]}`))
	rules, _ := conventions.New(cfg)
	policy, _, _ := rules.Lookup("local-app-order-command", nil)

	w := conventions.Write{
		Table:  "local-app-order-command",
		Policy: policy,
		Op:     conventions.OpPut,
		Key:    conventions.Key{PK: "ORDER#t1", SK: "ORDER#1"},
		New:    storage.Item{"version": storage.N(storage.MustNumber("1"))},
		NotExistsCondition: conventions.IsNotExistsCondition(
			"attribute_not_exists(pk) AND attribute_not_exists(sk)", nil),
	}
	vs := rules.CheckWrite(w)
	if ref := conventions.Refuse(vs, func(string) conventions.Mode { return policy.Mode }); ref != nil {
		fmt.Println("rejected:", ref.Error())
	}

	// Every blocking violation is named, not only the first.
	w.Key = conventions.Key{PK: "#t1", SK: "ORDER#1@0"}
	w.NotExistsCondition = false
	vs = rules.CheckWrite(w)
	if ref := conventions.Refuse(vs, func(string) conventions.Mode { return policy.Mode }); ref != nil {
		fmt.Println("rejected:", ref.Error())
	}
	// Output:
	// rejected: [conventions A3] command sort key "ORDER#1" has no @version suffix (item pk="ORDER#t1" sk="ORDER#1"; why: publishAsync writes addSortKeyVersion(sk, version) and version together; getItem and getLatestItem probe exactly that key)
	// rejected: 3 conventions violations: [conventions A2] command partition key "#t1" has an empty prefix: want PREFIX#TENANT (item pk="#t1" sk="ORDER#1@0"; why: the guide's key structure; getTenantCode returns undefined or '' otherwise, and the framework's tenant lookups (TTL, master data) go astray); [conventions B4] command sort key "ORDER#1@0" has version 0; stored versions start at 1 (-1 means latest) (item pk="#t1" sk="ORDER#1@0"; why: -1 means latest and 0 means new; getSortKeyVersion cannot tell @-1 from no version); [conventions B6] PutItem creates command row without the condition attribute_not_exists(pk) AND attribute_not_exists(sk) (item pk="#t1" sk="ORDER#1@0"; why: publishAsync, publishSync and duplicate always send the guard; updateTtl writes a version back whole with a new ttl, racing its status update (status, taskToken, updatedAt); the stream warm-up row goes through Policy.Exempt)
}
