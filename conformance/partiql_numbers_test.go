package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// How AWS reads a number given as a PartiQL parameter: as Java's
// BigDecimal reads a string, so an exponent that does not fit a 32-bit
// integer cannot be converted at all ("The parameter cannot be converted
// to a numeric value: <text>") in every position a parameter takes; and
// where a parameter is both nested too deeply and holds a number that
// cannot be converted, the first problem in document order is reported.
// AWS's answers as recorded by paritysuite/dynamodb-conformance
// (tests/tier3/error-messages/partiqlParameterNumbers.test.ts, eu-west-2
// and us-east-1, October 2026). DynamoDB Local words an unconvertible
// number otherwise ("A value provided cannot be converted into a number").
const recordPartiQLNumbers = "paritysuite/dynamodb-conformance partiqlParameterNumbers.test.ts (AWS, October 2026)"

func TestPartiQLParameterExponents(t *testing.T) {
	c, _, q := partiqlFixture(t)
	AWSDiffers(t, "DynamoDB Local says \"A value provided cannot be converted into a number\"; AWS: "+recordPartiQLNumbers)
	positions := []struct{ name, stmt string }{
		{"WHERE", "SELECT * FROM " + q + " WHERE pk = 'p' AND v = ?"},
		{"INSERT value", "INSERT INTO " + q + " VALUE {'pk': 'pq-insert', 'sk': 1, 'v': ?}"},
		{"UPDATE SET", "UPDATE " + q + " SET v = ? WHERE pk = 'p' AND sk = 1"},
		{"key", "SELECT * FROM " + q + " WHERE pk = 'p' AND sk = ?"},
	}
	for _, v := range []string{"1e99999999999", "-1e99999999999", "1e-99999999999", "1e2147483648", "1e-2147483648"} {
		for _, p := range positions {
			t.Run(p.name+" "+v, func(t *testing.T) {
				_, err := exec(t, c, p.stmt, n(v))
				requireValidation(t, err, "The parameter cannot be converted to a numeric value: "+v)
			})
		}
	}
}

func TestPartiQLParameterFirstProblem(t *testing.T) {
	_, _, q := partiqlFixture(t)
	AWSDiffers(t, "DynamoDB Local words an unconvertible number otherwise; AWS: "+recordPartiQLNumbers)
	const nest = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	const bad = "The parameter cannot be converted to a numeric value: abc"
	pair := "SELECT * FROM " + q + " WHERE pk = 'p' AND x = ? AND y = ?"
	single := "SELECT * FROM " + q + " WHERE pk = 'p' AND x = ?"
	// Sent raw: the SDK writes a map's members in no set order.
	deep := func(depth int, leaf string) string {
		return strings.Repeat(`{"M":{"n":`, depth) + leaf + strings.Repeat(`}}`, depth)
	}
	const abc = `{"N":"abc"}`
	for _, depth := range []int{40, 100} {
		tests := []struct {
			name, stmt, params, want string
		}{
			{"deep parameter first", pair, deep(depth, `{"S":"leaf"}`) + "," + abc, nest},
			{"unconvertible parameter first", pair, abc + "," + deep(depth, `{"S":"leaf"}`), bad},
			{"deep member first", single, `{"M":{"d":` + deep(depth, `{"S":"leaf"}`) + `,"bad":` + abc + `}}`, nest},
			{"unconvertible member first", single, `{"M":{"bad":` + abc + `,"d":` + deep(depth, `{"S":"leaf"}`) + `}}`, bad},
			{"unconvertible at the bottom", single, deep(depth, abc), nest},
			{"deep parameter before an overflow", pair, deep(depth, `{"S":"leaf"}`) + `,{"N":"1e126"}`, nest},
		}
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%d %s", depth, tc.name), func(t *testing.T) {
				stmt, err := json.Marshal(tc.stmt)
				require.NoError(t, err)
				r := rawCall(t, "ExecuteStatement", `{"Statement":`+string(stmt)+`,"Parameters":[`+tc.params+`]}`)
				require.Equal(t, 400, r.Status)
				require.Equal(t, "ValidationException", r.Type)
				require.Equal(t, tc.want, r.Message)
			})
		}
	}
}
