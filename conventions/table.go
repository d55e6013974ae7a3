package conventions

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/storage"
)

// CheckTable checks rule A1 for a table of the given roles: the framework's
// tables are keyed by pk (String, HASH) and sk (String, RANGE). Roles 0
// checks nothing. The violations carry no table name or key.
func CheckTable(roles Roles, ks storage.KeySchema) []Violation {
	if roles == 0 {
		return nil
	}
	var out []Violation
	check := func(what string, got storage.KeyAttr, want string) {
		if got.Name == want && got.Kind == storage.KindS {
			return
		}
		desc := "none"
		if got.Name != "" {
			desc = got.Name + " (" + got.Kind.String() + ")"
		}
		out = append(out, Violation{Rule: "A1", Severity: SeverityError,
			Message: fmt.Sprintf(msgTableKey, roleName(roles), what, desc, want)})
	}
	check("partition", ks.Partition, "pk")
	check("sort", ks.Sort, "sk")
	return out
}
