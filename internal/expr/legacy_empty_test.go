package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestLegacyEmptyAttributeName: every legacy parameter refuses a name "".
func TestLegacyEmptyAttributeName(t *testing.T) {
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	null := LegacyCondition{ComparisonOperator: "NULL"}
	calls := map[string]func() error{
		"Expected": func() error {
			_, err := Expected(map[string]LegacyCondition{"": null}, "")
			return err
		},
		"Filter": func() error {
			_, err := Filter(named(map[string]LegacyCondition{"a": null, "": null}), "")
			return err
		},
		"KeyConditions": func() error {
			_, err := KeyConditions(named(map[string]LegacyCondition{"": null}), ks)
			return err
		},
		"AttributesToGet": func() error {
			_, err := AttributesToGet([]string{"a", ""})
			return err
		},
		"AttributeUpdates": func() error {
			v := storage.S("x")
			_, err := AttributeUpdates(map[string]AttributeUpdate{"": {Action: "PUT", Value: &v}})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); err == nil || err.Error() != MsgEmptyAttributeName {
			t.Errorf("%s: got %v, want %q", name, err, MsgEmptyAttributeName)
		}
	}
}

// named is a legacy condition map as Filter and KeyConditions take it.
func named(m map[string]LegacyCondition) []NamedCondition {
	out := make([]NamedCondition, 0, len(m))
	for name, c := range m {
		out = append(out, NamedCondition{Name: name, ComparisonOperator: c.ComparisonOperator, AttributeValueList: c.AttributeValueList})
	}
	return out
}
