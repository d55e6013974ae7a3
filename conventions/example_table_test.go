package conventions_test

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/conventions"
)

// CheckTable checks a table's key schema for its roles (rule A1): the
// framework's tables are keyed by pk and sk, both strings.
func ExampleCheckTable() {
	good := conventions.KeySchema{
		Partition: conventions.KeyAttribute{Name: "pk", Type: "S"},
		Sort:      conventions.KeyAttribute{Name: "sk", Type: "S"},
	}
	bad := conventions.KeySchema{Partition: conventions.KeyAttribute{Name: "id", Type: "S"}}
	fmt.Println(len(conventions.CheckTable(conventions.RoleCommand, good)))
	for _, v := range conventions.CheckTable(conventions.RoleData, bad) {
		fmt.Println(v.Rule, v.Severity)
	}
	// Output:
	// 0
	// A1 error
	// A1 error
}
