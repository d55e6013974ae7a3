package conformance

// PartiQL key values of the wrong type or empty, in SELECT (table and
// index), UPDATE, DELETE and ExecuteTransaction.

import "testing"

func TestPartiQLKeyValueErrors(t *testing.T) {
	c, tbl := partiqlIndexFixture(t)
	q := quoted(tbl)
	const mismatch = "Key attribute's data type should match its data type in table's schema: Key "
	tests := []struct {
		name, stmt, msg string
	}{
		{"partition key", "SELECT * FROM " + q + " WHERE pk = 5", mismatch + "pk"},
		{"partition key on the right", "SELECT * FROM " + q + " WHERE 5 = pk", mismatch + "pk"},
		{"sort key", "SELECT * FROM " + q + " WHERE pk = 'p' AND sk > 5", mismatch + "sk"},
		{"sort key between", "SELECT * FROM " + q + " WHERE pk = 'p' AND sk BETWEEN 1 AND 2", mismatch + "sk"},
		{"index partition key", "SELECT * FROM " + indexTarget(tbl, "byG") + " WHERE g = 1", mismatch + "g"},
		{"index sort key", "SELECT * FROM " + indexTarget(tbl, "byG") + " WHERE g = 'x' AND gs = 'z'", mismatch + "gs"},
		{"empty partition key", "SELECT * FROM " + q + " WHERE pk = ''",
			"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{"update", "UPDATE " + q + " SET a = 1 WHERE pk = 'p' AND sk = 1", mismatch + "sk"},
		{"delete", "DELETE FROM " + q + " WHERE pk = 1 AND sk = '1'", mismatch + "pk"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := exec(t, c, tc.stmt)
			requireValidation(t, err, tc.msg)
		})
	}
	t.Run("transaction", func(t *testing.T) {
		_, err := execTx(t, c, "SELECT * FROM "+q+" WHERE pk = 'p' AND sk = 1")
		reasons := requireCanceled(t, err, "ValidationError")
		if got := *reasons[0].Message; got != mismatch+"sk" {
			t.Errorf("message: got %q, want %q", got, mismatch+"sk")
		}
	})
}
