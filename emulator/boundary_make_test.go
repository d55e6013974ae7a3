package emulator

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBoundaryRestoreMakesTarget: a restore makes its target, judged as
// CreateTable is: a caller bound to a tenant restoring a backup of a
// table that opts in to nothing is refused a target the configuration
// opts in (a shared table), and not another; an unbound key restores
// into either.
func TestBoundaryRestoreMakesTarget(t *testing.T) {
	f := newMxFixture(t)
	a := f.api(t, mxAdmin, "DynamoDB_20120810.CreateTable", `{"TableName":"plain","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	require.Equal(t, http.StatusOK, a.status, a.body)
	a = f.api(t, mxAdmin, "DynamoDB_20120810.CreateBackup", `{"TableName":"plain","BackupName":"plain"}`)
	require.Equal(t, http.StatusOK, a.status, a.body)
	var out struct{ BackupDetails struct{ BackupArn string } }
	require.NoError(t, json.Unmarshal([]byte(a.body), &out))
	restore := func(key, target string) mxAnswer {
		return f.api(t, key, "DynamoDB_20120810.RestoreTableFromBackup",
			`{"BackupArn":"`+out.BackupDetails.BackupArn+`","TargetTableName":"`+target+`"}`)
	}
	a = restore(mxOther, "shared-command")
	require.Equal(t, http.StatusBadRequest, a.status, a.body)
	require.Contains(t, a.body, "AccessDeniedException")
	require.Contains(t, a.body, `[conventions B10] caller tenant \"tenant002\" may not make table \"shared-command\" (RestoreTableFromBackup)`)
	a = f.api(t, mxAdmin, "DynamoDB_20120810.DescribeTable", `{"TableName":"shared-command"}`)
	require.Contains(t, a.body, "ResourceNotFoundException", "the refused restore made no table")
	require.Equal(t, http.StatusOK, restore(mxOther, "mine").status, "a target that opts in to nothing")
	require.Equal(t, http.StatusOK, restore(mxUnbound, "unbound-command").status, "an unbound key")
}
