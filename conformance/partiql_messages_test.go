package conformance

// PartiQL refusals AWS words on their own terms, not in the "Statement
// wasn't well formed" envelope. AWS's answers as captured against AWS
// (eu-west-2, 2026) and published by nubo-db/dynoxide: tests/partiql.rs
// (COUNT(*): "Unexpected path component at 1:8:5", also for a table that
// does not exist) and tests/partiql_index_qualifier.rs (captures Q23,
// Q24, Q25: an index named by a write, refused before the table is looked
// up). DynamoDB Local answers the same.

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPartiQLCountRefused: an aggregate in the SELECT list is a path
// component AWS does not read, refused at the function's name (line,
// column, length), before the missing table is reported.
func TestPartiQLCountRefused(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tbl := partiqlTable(t, c)
	_, err := exec(t, c, "SELECT COUNT(*) FROM "+quoted(tbl))
	requireValidation(t, err, "Unexpected path component at 1:8:5")
	_, err = exec(t, c, "SELECT COUNT(*) FROM "+quoted(tbl+"-missing"))
	requireValidation(t, err, "Unexpected path component at 1:8:5")
}

// TestPartiQLWriteOnIndexRefused: an UPDATE or DELETE naming an index is
// refused, before the table is looked up; an INSERT naming one is refused
// in other words. Nothing is written.
func TestPartiQLWriteOnIndexRefused(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tbl := capacityIndexTable(t, c)
	mustPut(t, c, tbl, item{"pk": s("p"), "sk": s("s1"), "gsiPk": s("g"), "proj": s("a")})
	target := quoted(tbl) + `."gsi-inc"`
	for _, stmt := range []string{
		"UPDATE " + target + " SET proj='z' WHERE pk='p' AND sk='s1'",
		"DELETE FROM " + target + " WHERE pk='p' AND sk='s1'",
		"UPDATE " + quoted(tbl+"-missing") + `."gsi-inc" SET a='z' WHERE pk='p'`,
	} {
		_, err := exec(t, c, stmt)
		requireValidation(t, err, "This operation is not supported on an index")
	}
	_, err := exec(t, c, "INSERT INTO "+target+" VALUE {'pk':'w','sk':'w'}")
	requireValidation(t, err, "FROM clause may only contain a single table name in data manipulation statements")
	requireItem(t, mustGet(t, c, tbl, item{"pk": s("p"), "sk": s("s1")}), item{"pk": s("p"), "sk": s("s1"), "gsiPk": s("g"), "proj": s("a")})
	require.Nil(t, mustGet(t, c, tbl, item{"pk": s("w"), "sk": s("w")}))
}
