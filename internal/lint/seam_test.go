package lint

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// corePkg is the service core the table-level features plug into.
const corePkg = "emulator/internal/service"

// featurePackages are the packages of the table-level features, each
// with the names of its state and operations: the core's code may use
// none of them (its comments may name them). A package that imports the
// core is a feature and belongs here, unless featureExempt says why not.
var featurePackages = map[string][]string{
	"emulator/internal/resources": {"resourcePolicy", "resourcePolicies", "policiesSlot", "Policies",
		"putResourcePolicy", "getResourcePolicy", "deleteResourcePolicy", "PutResourcePolicyInput", "validatePolicyDocument",
		"kinesisDest", "kinesisSlot", "KinesisDestinations", "enableKinesisDest", "disableKinesisDest", "updateKinesisDest",
		"describeKinesisDest", "KinesisStreamingDestinationInput", "kinesisRequest", "changeKinesisDest"},
	"emulator/internal/pitr": {"pitrRecorder", "pitrLog", "pitrDisk", "wrapPITR", "syncPITR", "loadKept", "loadPITR",
		"dropUnclaimed", "continuousBackups", "describeContinuousBackups", "updateContinuousBackups",
		"restoreTableToPointInTime", "UpdateContinuousBackupsInput", "ContinuousBackupsDescription",
		"PointInTimeRecoveryDescription", "RestoreTableToPointInTimeInput", "HistoryOf"},
	"emulator/internal/backups": {"backupSet", "backup", "createBackup", "describeBackup", "listBackups", "deleteBackup",
		"restoreTableFromBackup", "systemBackupLocked", "loadBackups", "keepBackup", "lookupBackup", "CreateBackupInput",
		"BackupDetails", "BackupDescription", "BackupSummary", "RestoreTableFromBackupInput"},
	"emulator/internal/globaltables": {"replicator", "replTap", "replOp", "replTarget", "replRoute", "replStamp", "replicaRec",
		"autoScalingRule", "autoScalingSettings", "tableExt", "extCopy", "wrapReplication", "syncReplication", "drainDue",
		"updateReplicas", "createReplica", "deleteReplica", "updateReplica", "replicaTable", "checkReplicaDelete",
		"checkReplicaStream", "checkReplicaInFlightLocked", "checkReplicasSettled", "describeReplicas", "describedStatusAt",
		"replicaRegions", "replicaStatus", "writeAutoScaled", "enableReplicaStream", "legacyGroup", "globalSettings",
		"ReplicationGroupUpdate", "ReplicaAction", "ReplicaDescription", "GlobalTableDescription", "CreateGlobalTableInput",
		"UpdateGlobalTableInput", "UpdateTableReplicaAutoScalingInput", "TableAutoScalingDescription",
		"SetReplicationDelay", "DrainReplication", "StampCount", "globalVersion2019", "globalVersion2017"},
	"emulator/internal/transfers": {"transferSet", "exportJob", "importJob", "bulkJob", "exportTable", "importTable",
		"startBulkPutItems", "saveTransfer", "restoreTransfers", "moveSet", "s3Bucket", "s3Root", "exportWriter", "importRun", "bulkRun",
		"ExportTableToPointInTimeInput", "ImportTableInput", "StartBulkPutItemsInput", "ExportDescription", "ImportTableDescription"},
	"emulator/internal/tagging": {"tagResource", "untagResource", "listTagsOfResource", "TagResourceInput", "UntagResourceInput",
		"ListTagsOfResourceInput", "ListTagsOfResourceOutput", "tableNameFromResourceARN", "mergeTags"},
	"emulator/internal/ttl": {"updateTimeToLive", "describeTimeToLive", "UpdateTimeToLiveInput", "UpdateTimeToLiveOutput",
		"DescribeTimeToLiveInput", "DescribeTimeToLiveOutput", "TimeToLiveSpecification", "maxTTLAttrLen"},
	"emulator/internal/streamsapi": {"listStreams", "describeStream", "getShardIterator", "getRecords", "ListStreamsInput",
		"ListStreamsOutput", "DescribeStreamInput", "DescribeStreamOutput", "GetShardIteratorInput", "GetRecordsInput",
		"GetRecordsOutput", "StreamSummary", "ShardFilter", "SequenceNumberRange", "lookupStream", "checkStreamARN",
		"wellFormedStreamARN", "appendRecord", "iteratorLifetime", "streamARNConstraints", "shardIDConstraints"},
	"emulator/internal/vectorsearch": {"searchVectors", "SearchVectorsInput", "SearchVectorsOutput", "searchCondition", "searchTerm",
		"searchProjector", "searchResult", "bindTerms", "flattenAnd", "float32Of", "maxSearchBytes", "minSearchBytes", "newProjector"},
	"emulator/internal/partiqlops": {"executeStatement", "batchExecuteStatement", "executeTransaction", "ExecuteStatementInput",
		"ExecuteStatementOutput", "BatchExecuteStatementInput", "BatchExecuteStatementOutput", "ExecuteTransactionInput",
		"ExecuteTransactionOutput", "ParameterizedStatement", "BatchStatementRequest", "BatchStatementResponse",
		"BatchStatementError", "stmtCache", "parseStatement", "runStatement", "planInsert", "planUpdate", "planDelete",
		"planExists", "projectColumns", "batchFaultCode", "itemRuleError", "capacityTotals"},
	"emulator/internal/lambdaesm": {"deliverFrom", "invocationRecord", "batchItemFailures",
		"parsePattern", "filterSet", "DrainError", "LoadFile", "drainTarget", "tableStream"},
	"emulator/internal/contributorinsights": {"updateContributorInsights", "describeContributorInsights", "listContributorInsights",
		"ciTarget", "UpdateContributorInsightsInput", "DescribeContributorInsightsInput", "ListContributorInsightsInput",
		"ListContributorInsightsOutput", "ContributorInsightsSummary", "enumCIAction", "enumCIMode", "maxCIList"},
}

// featureExempt are the packages below emulator/ that import the core
// without being a feature, with why.
var featureExempt = map[string]string{
	"emulator/internal/service/servicetest": "the harness of the features' tests",
}

// TestCoreNamesNoFeature: the core's files import no feature package and
// use none of a feature's names in code: a feature plugs in through the
// seam (emulator/internal/service/feature.go), so adding one edits no
// core file.
func TestCoreNamesNoFeature(t *testing.T) {
	dir := filepath.Join(root(t), corePkg)
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	forbidden := map[string]string{}
	for p, names := range featurePackages {
		for _, n := range names {
			forbidden[n] = p
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for p := range featurePackages {
				require.False(t, strings.HasSuffix(path, "/"+p), "%s imports the feature package %s", f, p)
			}
		}
		var s scanner.Scanner
		file := fset.AddFile(f, -1, len(src))
		s.Init(file, src, nil, 0) // comments skipped
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if p, ok := forbidden[lit]; tok == token.IDENT && ok {
				t.Errorf("%s: the core uses %s, a name of the feature %s", fset.Position(pos), lit, p)
			}
		}
	}
}

// TestFeaturesWired: every package below emulator/ that imports the core
// is a feature package (or exempt, with why), and the emulator wires
// every feature package (emulator/features.go).
func TestFeaturesWired(t *testing.T) {
	const module = "github.com/dynamoemu/dynamoemu/"
	for _, p := range goList(t, "-json=ImportPath,Imports", "./emulator/...") {
		rel := strings.TrimPrefix(p.ImportPath, module)
		if rel == "emulator" || rel == corePkg || !slices.Contains(p.Imports, module+corePkg) {
			continue
		}
		_, feature := featurePackages[rel]
		_, exempt := featureExempt[rel]
		require.True(t, feature || exempt, "%s imports the service core: list it in featurePackages (a feature) or featureExempt (with why)", rel)
	}
	src, err := os.ReadFile(filepath.Join(root(t), "emulator", "features.go"))
	require.NoError(t, err)
	for p := range featurePackages {
		require.Contains(t, string(src), `"`+module+p+`"`, "emulator/features.go does not wire the feature package %s", p)
	}
}
