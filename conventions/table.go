package conventions

import (
	"fmt"
)

// KeySchema is a table's primary key, as CheckTable reads it.
type KeySchema struct {
	// Partition is the partition (HASH) key; Sort the sort (RANGE) key,
	// its Name "" when the table has none.
	Partition, Sort KeyAttribute
}

// KeyAttribute names one key attribute and its type: "S", "N" or "B".
type KeyAttribute struct {
	// Name is the attribute's name.
	Name string
	// Type is its DynamoDB type descriptor (AttributeType).
	Type string
}

// CheckTable checks rule A1 for a table of the given roles: the framework's
// tables are keyed by pk (String, HASH) and sk (String, RANGE). Roles 0
// checks nothing. The violations carry no table name or key.
func CheckTable(roles Roles, ks KeySchema) []Violation {
	if roles == 0 {
		return nil
	}
	var out []Violation
	check := func(what string, got KeyAttribute, want string) {
		if got.Name == want && got.Type == "S" {
			return
		}
		desc := "none"
		if got.Name != "" {
			desc = got.Name + " (" + got.Type + ")"
		}
		out = append(out, Violation{Rule: "A1", Severity: severityOf("A1"),
			Message: fmt.Sprintf(msgTableKey, roleName(roles), what, desc, want)})
	}
	check("partition", ks.Partition, "pk")
	check("sort", ks.Sort, "sk")
	return out
}

// CheckStream checks rule A11 for a table of the given roles: the
// framework moves every new command version to its data table through the
// command table's stream, reading NewImage, so a command table needs a
// stream whose records carry the new image (NEW_IMAGE, as the framework
// creates it, or NEW_AND_OLD_IMAGES). enabled and viewType describe the
// table's StreamSpecification. The violation is a warning: a table can be
// created first and its stream enabled by a later UpdateTable.
func CheckStream(roles Roles, enabled bool, viewType string) []Violation {
	if !roles.Has(RoleCommand) {
		return nil
	}
	if enabled && (viewType == "NEW_IMAGE" || viewType == "NEW_AND_OLD_IMAGES") {
		return nil
	}
	got := "off"
	if enabled {
		got = viewType
	}
	return []Violation{{Rule: "A11", Severity: severityOf("A11"), Message: fmt.Sprintf(msgCommandStream, got)}}
}
