package emulator

import (
	"cmp"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"
)

// sdkShapes are the operations of the DynamoDB model in the
// aws-sdk-go-v2 service/dynamodb version go.mod names, with their input
// and output shapes: one line per api_op_*.go of that module. Regenerate
// them when the SDK is updated (ls $(go list -m -f '{{.Dir}}'
// github.com/aws/aws-sdk-go-v2/service/dynamodb)/api_op_*.go).
var sdkShapes = []struct {
	name    string
	in, out reflect.Type
}{
	{"BatchExecuteStatement", reflect.TypeFor[dynamodb.BatchExecuteStatementInput](), reflect.TypeFor[dynamodb.BatchExecuteStatementOutput]()},
	{"BatchGetItem", reflect.TypeFor[dynamodb.BatchGetItemInput](), reflect.TypeFor[dynamodb.BatchGetItemOutput]()},
	{"BatchWriteItem", reflect.TypeFor[dynamodb.BatchWriteItemInput](), reflect.TypeFor[dynamodb.BatchWriteItemOutput]()},
	{"CancelBulkOperation", reflect.TypeFor[dynamodb.CancelBulkOperationInput](), reflect.TypeFor[dynamodb.CancelBulkOperationOutput]()},
	{"CreateBackup", reflect.TypeFor[dynamodb.CreateBackupInput](), reflect.TypeFor[dynamodb.CreateBackupOutput]()},
	{"CreateGlobalTable", reflect.TypeFor[dynamodb.CreateGlobalTableInput](), reflect.TypeFor[dynamodb.CreateGlobalTableOutput]()},
	{"CreateTable", reflect.TypeFor[dynamodb.CreateTableInput](), reflect.TypeFor[dynamodb.CreateTableOutput]()},
	{"DeleteBackup", reflect.TypeFor[dynamodb.DeleteBackupInput](), reflect.TypeFor[dynamodb.DeleteBackupOutput]()},
	{"DeleteItem", reflect.TypeFor[dynamodb.DeleteItemInput](), reflect.TypeFor[dynamodb.DeleteItemOutput]()},
	{"DeleteResourcePolicy", reflect.TypeFor[dynamodb.DeleteResourcePolicyInput](), reflect.TypeFor[dynamodb.DeleteResourcePolicyOutput]()},
	{"DeleteTable", reflect.TypeFor[dynamodb.DeleteTableInput](), reflect.TypeFor[dynamodb.DeleteTableOutput]()},
	{"DescribeBackup", reflect.TypeFor[dynamodb.DescribeBackupInput](), reflect.TypeFor[dynamodb.DescribeBackupOutput]()},
	{"DescribeBulkOperation", reflect.TypeFor[dynamodb.DescribeBulkOperationInput](), reflect.TypeFor[dynamodb.DescribeBulkOperationOutput]()},
	{"DescribeContinuousBackups", reflect.TypeFor[dynamodb.DescribeContinuousBackupsInput](), reflect.TypeFor[dynamodb.DescribeContinuousBackupsOutput]()},
	{"DescribeContributorInsights", reflect.TypeFor[dynamodb.DescribeContributorInsightsInput](), reflect.TypeFor[dynamodb.DescribeContributorInsightsOutput]()},
	{"DescribeEndpoints", reflect.TypeFor[dynamodb.DescribeEndpointsInput](), reflect.TypeFor[dynamodb.DescribeEndpointsOutput]()},
	{"DescribeExport", reflect.TypeFor[dynamodb.DescribeExportInput](), reflect.TypeFor[dynamodb.DescribeExportOutput]()},
	{"DescribeGlobalTable", reflect.TypeFor[dynamodb.DescribeGlobalTableInput](), reflect.TypeFor[dynamodb.DescribeGlobalTableOutput]()},
	{"DescribeGlobalTableSettings", reflect.TypeFor[dynamodb.DescribeGlobalTableSettingsInput](), reflect.TypeFor[dynamodb.DescribeGlobalTableSettingsOutput]()},
	{"DescribeImport", reflect.TypeFor[dynamodb.DescribeImportInput](), reflect.TypeFor[dynamodb.DescribeImportOutput]()},
	{"DescribeKinesisStreamingDestination", reflect.TypeFor[dynamodb.DescribeKinesisStreamingDestinationInput](), reflect.TypeFor[dynamodb.DescribeKinesisStreamingDestinationOutput]()},
	{"DescribeLimits", reflect.TypeFor[dynamodb.DescribeLimitsInput](), reflect.TypeFor[dynamodb.DescribeLimitsOutput]()},
	{"DescribeTable", reflect.TypeFor[dynamodb.DescribeTableInput](), reflect.TypeFor[dynamodb.DescribeTableOutput]()},
	{"DescribeTableReplicaAutoScaling", reflect.TypeFor[dynamodb.DescribeTableReplicaAutoScalingInput](), reflect.TypeFor[dynamodb.DescribeTableReplicaAutoScalingOutput]()},
	{"DescribeTimeToLive", reflect.TypeFor[dynamodb.DescribeTimeToLiveInput](), reflect.TypeFor[dynamodb.DescribeTimeToLiveOutput]()},
	{"DisableKinesisStreamingDestination", reflect.TypeFor[dynamodb.DisableKinesisStreamingDestinationInput](), reflect.TypeFor[dynamodb.DisableKinesisStreamingDestinationOutput]()},
	{"EnableKinesisStreamingDestination", reflect.TypeFor[dynamodb.EnableKinesisStreamingDestinationInput](), reflect.TypeFor[dynamodb.EnableKinesisStreamingDestinationOutput]()},
	{"ExecuteStatement", reflect.TypeFor[dynamodb.ExecuteStatementInput](), reflect.TypeFor[dynamodb.ExecuteStatementOutput]()},
	{"ExecuteTransaction", reflect.TypeFor[dynamodb.ExecuteTransactionInput](), reflect.TypeFor[dynamodb.ExecuteTransactionOutput]()},
	{"ExportTableToPointInTime", reflect.TypeFor[dynamodb.ExportTableToPointInTimeInput](), reflect.TypeFor[dynamodb.ExportTableToPointInTimeOutput]()},
	{"GetItem", reflect.TypeFor[dynamodb.GetItemInput](), reflect.TypeFor[dynamodb.GetItemOutput]()},
	{"GetResourcePolicy", reflect.TypeFor[dynamodb.GetResourcePolicyInput](), reflect.TypeFor[dynamodb.GetResourcePolicyOutput]()},
	{"ImportTable", reflect.TypeFor[dynamodb.ImportTableInput](), reflect.TypeFor[dynamodb.ImportTableOutput]()},
	{"ListBackups", reflect.TypeFor[dynamodb.ListBackupsInput](), reflect.TypeFor[dynamodb.ListBackupsOutput]()},
	{"ListBulkOperations", reflect.TypeFor[dynamodb.ListBulkOperationsInput](), reflect.TypeFor[dynamodb.ListBulkOperationsOutput]()},
	{"ListContributorInsights", reflect.TypeFor[dynamodb.ListContributorInsightsInput](), reflect.TypeFor[dynamodb.ListContributorInsightsOutput]()},
	{"ListExports", reflect.TypeFor[dynamodb.ListExportsInput](), reflect.TypeFor[dynamodb.ListExportsOutput]()},
	{"ListGlobalTables", reflect.TypeFor[dynamodb.ListGlobalTablesInput](), reflect.TypeFor[dynamodb.ListGlobalTablesOutput]()},
	{"ListImports", reflect.TypeFor[dynamodb.ListImportsInput](), reflect.TypeFor[dynamodb.ListImportsOutput]()},
	{"ListTables", reflect.TypeFor[dynamodb.ListTablesInput](), reflect.TypeFor[dynamodb.ListTablesOutput]()},
	{"ListTagsOfResource", reflect.TypeFor[dynamodb.ListTagsOfResourceInput](), reflect.TypeFor[dynamodb.ListTagsOfResourceOutput]()},
	{"PutItem", reflect.TypeFor[dynamodb.PutItemInput](), reflect.TypeFor[dynamodb.PutItemOutput]()},
	{"PutResourcePolicy", reflect.TypeFor[dynamodb.PutResourcePolicyInput](), reflect.TypeFor[dynamodb.PutResourcePolicyOutput]()},
	{"Query", reflect.TypeFor[dynamodb.QueryInput](), reflect.TypeFor[dynamodb.QueryOutput]()},
	{"RestoreTableFromBackup", reflect.TypeFor[dynamodb.RestoreTableFromBackupInput](), reflect.TypeFor[dynamodb.RestoreTableFromBackupOutput]()},
	{"RestoreTableToPointInTime", reflect.TypeFor[dynamodb.RestoreTableToPointInTimeInput](), reflect.TypeFor[dynamodb.RestoreTableToPointInTimeOutput]()},
	{"Scan", reflect.TypeFor[dynamodb.ScanInput](), reflect.TypeFor[dynamodb.ScanOutput]()},
	{"SearchVectors", reflect.TypeFor[dynamodb.SearchVectorsInput](), reflect.TypeFor[dynamodb.SearchVectorsOutput]()},
	{"StartBulkPutItems", reflect.TypeFor[dynamodb.StartBulkPutItemsInput](), reflect.TypeFor[dynamodb.StartBulkPutItemsOutput]()},
	{"TagResource", reflect.TypeFor[dynamodb.TagResourceInput](), reflect.TypeFor[dynamodb.TagResourceOutput]()},
	{"TransactGetItems", reflect.TypeFor[dynamodb.TransactGetItemsInput](), reflect.TypeFor[dynamodb.TransactGetItemsOutput]()},
	{"TransactWriteItems", reflect.TypeFor[dynamodb.TransactWriteItemsInput](), reflect.TypeFor[dynamodb.TransactWriteItemsOutput]()},
	{"UntagResource", reflect.TypeFor[dynamodb.UntagResourceInput](), reflect.TypeFor[dynamodb.UntagResourceOutput]()},
	{"UpdateContinuousBackups", reflect.TypeFor[dynamodb.UpdateContinuousBackupsInput](), reflect.TypeFor[dynamodb.UpdateContinuousBackupsOutput]()},
	{"UpdateContributorInsights", reflect.TypeFor[dynamodb.UpdateContributorInsightsInput](), reflect.TypeFor[dynamodb.UpdateContributorInsightsOutput]()},
	{"UpdateGlobalTable", reflect.TypeFor[dynamodb.UpdateGlobalTableInput](), reflect.TypeFor[dynamodb.UpdateGlobalTableOutput]()},
	{"UpdateGlobalTableSettings", reflect.TypeFor[dynamodb.UpdateGlobalTableSettingsInput](), reflect.TypeFor[dynamodb.UpdateGlobalTableSettingsOutput]()},
	{"UpdateItem", reflect.TypeFor[dynamodb.UpdateItemInput](), reflect.TypeFor[dynamodb.UpdateItemOutput]()},
	{"UpdateKinesisStreamingDestination", reflect.TypeFor[dynamodb.UpdateKinesisStreamingDestinationInput](), reflect.TypeFor[dynamodb.UpdateKinesisStreamingDestinationOutput]()},
	{"UpdateTable", reflect.TypeFor[dynamodb.UpdateTableInput](), reflect.TypeFor[dynamodb.UpdateTableOutput]()},
	{"UpdateTableReplicaAutoScaling", reflect.TypeFor[dynamodb.UpdateTableReplicaAutoScalingInput](), reflect.TypeFor[dynamodb.UpdateTableReplicaAutoScalingOutput]()},
	{"UpdateTimeToLive", reflect.TypeFor[dynamodb.UpdateTimeToLiveInput](), reflect.TypeFor[dynamodb.UpdateTimeToLiveOutput]()},
}

// TestModelWalk walks every input and output shape of the SDK's model,
// member by member into the nested structures, beside the Go types the
// emulator decodes that operation's request into and encodes its answer
// from (service.Service.OperationShapes). A member the emulator's type lacks is
// one the emulator drops (its decoder skips unknown members, as AWS's
// older clients need) or never answers: each must be in modelGaps with
// the reason, and every entry of modelGaps must still be such a member.
func TestModelWalk(t *testing.T) {
	shapes := newTestEmulator(t, Options{}).svc.OperationShapes()
	var missing []string
	for _, op := range sdkShapes {
		sh, ok := shapes[op.name]
		if !ok {
			missing = append(missing, op.name)
			continue
		}
		missing = append(missing, walkShape(op.in, sh.In, map[reflect.Type]bool{})...)
		missing = append(missing, walkShape(op.out, sh.Out, map[reflect.Type]bool{})...)
	}
	sort.Strings(missing)
	missing = slices.Compact(missing)
	var unlisted []string
	for _, m := range missing {
		if modelGaps[m] == "" {
			unlisted = append(unlisted, m)
		}
	}
	var stale []string
	for m := range modelGaps {
		if !slices.Contains(missing, m) {
			stale = append(stale, m)
		}
	}
	sort.Strings(stale)
	require.Empty(t, unlisted, "model members the emulator drops without a reason in modelGaps")
	require.Empty(t, stale, "modelGaps entries the emulator now keeps: remove them")
}

// walkShape returns the members of the SDK type sdk that the emulator's
// type emu lacks, as Shape.Member (a shape appears in many operations:
// it is named once), descending into structures, lists and maps where
// both sides are structures.
func walkShape(sdk, emu reflect.Type, seen map[reflect.Type]bool) []string {
	sdk, emu = deref(sdk), deref(emu)
	if sdk.Kind() != reflect.Struct || emu.Kind() != reflect.Struct || seen[sdk] {
		return nil // a scalar, a union or a value the emulator takes whole
	}
	seen[sdk] = true
	defer delete(seen, sdk)
	members := emuMembers(emu)
	var out []string
	for i := range sdk.NumField() {
		f := sdk.Field(i)
		if !f.IsExported() || f.Name == "ResultMetadata" {
			continue
		}
		e, ok := members[f.Name]
		if !ok {
			out = append(out, sdk.Name()+"."+f.Name)
			continue
		}
		out = append(out, walkShape(elem(f.Type), elem(e), seen)...)
	}
	return out
}

// emuMembers are the JSON members of an emulator struct type, by name:
// a json tag's name or the field's, embedded structs flattened, "-"
// left out.
func emuMembers(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && deref(f.Type).Kind() == reflect.Struct {
			for k, v := range emuMembers(deref(f.Type)) {
				out[k] = v
			}
			continue
		}
		if !f.IsExported() && name == "" {
			continue
		}
		out[cmp.Or(name, f.Name)] = f.Type
	}
	return out
}

// elem is the element type of lists and maps (their members are
// walked), else t.
func elem(t reflect.Type) reflect.Type {
	t = deref(t)
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = deref(t.Elem())
	}
	return t
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// The reasons of modelGaps.
const (
	byFeatureDescriber = "kept: added to the description by the globaltables feature (its Describe hook), outside the type the walk sees"
	byOwnEncoder       = "kept: the output writes itself (AppendJSON), so its Go fields are not its members"
	byFilterDecoder    = "kept: QueryFilter and ScanFilter are read by their own decoder into expr.LegacyFilter (wire/wire_conditions.go), each entry as a wire.Condition, so the walk sees no Condition under them"
	byExpectedDecoder  = "kept: Expected is read by its own decoder into expr.LegacyExpected (wire/wire_conditions.go), each entry as a wire.ExpectedCondition, so the walk sees no ExpectedAttributeValue under it"
	notModelled        = "dropped: not modelled (multi-account global tables: the emulator has one account)"
	neverHappens       = "never reported: the emulator has no state that shows it"
)

// modelGaps are the model's members the emulator's types lack, by
// Shape.Member, each with why: kept elsewhere than the type the walk
// sees, never reported because nothing in the emulator produces it, or
// dropped. One table, so the next SDK update shows what is new.
var modelGaps = map[string]string{
	"Condition.AttributeValueList":              byFilterDecoder,
	"Condition.ComparisonOperator":              byFilterDecoder,
	"ExpectedAttributeValue.AttributeValueList": byExpectedDecoder,
	"ExpectedAttributeValue.ComparisonOperator": byExpectedDecoder,
	"ExpectedAttributeValue.Exists":             byExpectedDecoder,
	"ExpectedAttributeValue.Value":              byExpectedDecoder,
	// Kept, outside the walked types.
	"TableDescription.Replicas":                           byFeatureDescriber,
	"TableDescription.GlobalTableVersion":                 byFeatureDescriber,
	"TableDescription.MultiRegionConsistency":             byFeatureDescriber,
	"TableDescription.GlobalTableSettingsReplicationMode": byFeatureDescriber,
	"TableDescription.DisassociationProtectionEnabled":    byFeatureDescriber,
	"UpdateTableInput.DisassociationProtectionEnabled":    "kept: decoded by the globaltables feature (service.UpdateTableMember)",
	"UpdateTableInput.ReplicaUpdates":                     "kept: decoded by the globaltables feature (service.UpdateTableMember)",
	"UpdateTableInput.GlobalTableWitnessUpdates":          "kept: decoded by the globaltables feature (service.UpdateTableMember)",
	"TableDescription.GlobalTableWitnesses":               byFeatureDescriber,
	"ExecuteTransactionOutput.Responses":                  byOwnEncoder,
	"ExecuteTransactionOutput.ConsumedCapacity":           byOwnEncoder,
	"SearchVectorsOutput.SearchResults":                   byOwnEncoder,
	"SearchVectorsOutput.ConsumedCapacity":                byOwnEncoder,
	"VectorCapacity.VectorSearchRequestBytes":             "kept: only SearchVectors reports it, through its own encoder; item writes have none",

	// Never reported: nothing in the emulator produces them.
	"TableDescription.ArchivalSummary":                   neverHappens + " (a table is archived when AWS loses its KMS key for 7 days)",
	"SSEDescription.InaccessibleEncryptionDateTime":      neverHappens + " (KMS keys are never inaccessible)",
	"ReplicaDescription.ReplicaInaccessibleDateTime":     neverHappens + " (KMS keys are never inaccessible)",
	"ReplicaDescription.ReplicaStatusDescription":        neverHappens + " (a replica is ACTIVE at once)",
	"ReplicaDescription.ReplicaStatusPercentProgress":    neverHappens + " (a replica is ACTIVE at once)",
	"DescribeContributorInsightsOutput.FailureException": neverHappens + " (enabling never fails)",
	"TableClassSummary.LastUpdateDateTime":               "dropped: the time of a table class change is not kept",
	"BulkOperationUsage.GlobalSecondaryIndexes":          "dropped: a bulk operation's usage is reported for the table only",
	"BulkOperationUsage.LocalSecondaryIndexes":           "dropped: a bulk operation's usage is reported for the table only",
	"BulkOperationUsage.VectorIndexes":                   "dropped: a bulk operation's usage is reported for the table only",
	"ExecuteStatementOutput.LastEvaluatedKey":            "dropped: a SELECT's pages are given by NextToken only",

	// Dropped: accepted and ignored.
	"CreateTableInput.ResourcePolicy":                                   "dropped: a policy given at CreateTable is not kept (PutResourcePolicy is)",
	"TableCreationParameters.VectorIndexes":                             "dropped: ImportTable creates no vector index",
	"CreateTableInput.GlobalTableSourceArn":                             notModelled,
	"CreateTableInput.GlobalTableSettingsReplicationMode":               notModelled,
	"UpdateTableInput.GlobalTableSettingsReplicationMode":               notModelled,
	"ReplicaDescription.OnDemandThroughputOverride":                     "dropped: a replica's on-demand override is not described",
	"ReplicaGlobalSecondaryIndexDescription.OnDemandThroughputOverride": "dropped: a replica's on-demand override is not described",
	"ReplicaDescription.WarmThroughput":                                 "dropped: a replica's warm throughput is the table's (DescribeTable reports it)",
	"ReplicaGlobalSecondaryIndexDescription.WarmThroughput":             "dropped: a replica's warm throughput is the table's (DescribeTable reports it)",
}
