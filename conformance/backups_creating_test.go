package conformance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestRestoredTableCreatingItems: a restored table serves no item request
// while it is CREATING: AWS answers ResourceNotFoundException "Requested
// resource not found" (API reference, ResourceNotFoundException: "...
// or its status might not be ACTIVE"; public records of a PutItem to a
// table being created: github.com/cirello-io/dynamolock/issues/120), and
// its items once ACTIVE. AWS's restores take minutes, so both states are
// seen there; the emulator's restored tables are ACTIVE at once unless
// -delayTransientStatuses (its CREATING state is tested in
// emulator/internal/service, TestRestoredTableCreatingServesNoItems).
func TestRestoredTableCreatingItems(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("a"), "v": s("x")})
	bd := mustBackup(t, c, table, "creating-1")
	waitBackup(t, c, aws.ToString(bd.BackupArn))
	target := uniqueName(t)
	_, err := c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{TargetTableName: &target, BackupArn: bd.BackupArn})
	mustNoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, target) })

	before := mustDescribe(t, c, target).TableStatus
	_, err = c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &target, Key: item{"pk": s("a")}})
	if before == types.TableStatusCreating {
		if err == nil && mustDescribe(t, c, target).TableStatus == types.TableStatusCreating {
			t.Errorf("GetItem on a table CREATING: got an answer, want ResourceNotFoundException")
		} else if err != nil {
			requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
		}
	} else {
		mustNoError(t, err)
	}
	waitActive(t, c, target)
	got := mustGet(t, c, target, item{"pk": s("a")})
	requireItem(t, got, item{"pk": s("a"), "v": s("x")})
}
