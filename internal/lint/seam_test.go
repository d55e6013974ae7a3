package lint

import (
	"go/ast"
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
	"emulator/internal/accountops": {"listTables", "describeLimits", "describeEndpoints", "maxListTablesLimit",
		"defaultListTablesLimit", "accountMaxCapacityUnits", "tableMaxCapacityUnits", "deletingNames"},
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
	"emulator/internal/lambdaesm": {"deliverFrom", "invocationRecord", "readItemFailures",
		"parsePattern", "filterSet", "DrainError", "LoadFile", "drainTarget", "tableStream"},
	"emulator/internal/contributorinsights": {"updateContributorInsights", "describeContributorInsights", "listContributorInsights",
		"ciTarget", "UpdateContributorInsightsInput", "DescribeContributorInsightsInput", "ListContributorInsightsInput",
		"ListContributorInsightsOutput", "ContributorInsightsSummary", "enumCIAction", "enumCIMode", "maxCIList"},
}

// featureExempt are the packages below emulator/ that import the core
// without being a feature, with why.
var featureExempt = map[string]string{
	"emulator/internal/service/servicetest": "the harness of the features' tests",
	"emulator/internal/restore":             "the one restore path the backups and PITR features share (registers no operation)",
	"emulator/internal/adminhttp":           "the admin endpoints' handlers: they read the namespaces, tables and report as the emulator does (register no operation)",
	"emulator/internal/apiserve":            "the API's request path: it calls the service's Lookup and Serve as the edge does (registers no operation)",
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
		if _, stage := stagePackages[rel]; stage {
			continue // TestStagesWired
		}
		require.True(t, feature || exempt, "%s imports the service core: list it in featurePackages (a feature) or featureExempt (with why)", rel)
	}
	src, err := os.ReadFile(filepath.Join(root(t), "emulator", "features.go"))
	require.NoError(t, err)
	for p := range featurePackages {
		require.Contains(t, string(src), `"`+module+p+`"`, "emulator/features.go does not wire the feature package %s", p)
	}
}

// stagesDir holds the instruments' packages: stages of the core's
// request pipeline (emulator/internal/service/stage.go).
const stagesDir = "emulator/internal/stages"

// stagePackages are the packages of the instruments moved out of the
// core, each with the names of its code: the core's code may use none of
// them (its comments may name them), and imports none of the packages.
var stagePackages = map[string][]string{
	"emulator/internal/stages/faults": {"faultStage", "fxOperation", "fxTargetOf", "fxTargetMembers", "targetOf",
		"targetMembers", "tableOfARN", "faultError", "Faults", "inj"},
	"emulator/internal/stages/insights": {"reportStage", "throughputRefusal", "nsCatalog", "NamespaceReport", "ReportOf", "Reports",
		"RecorderOf", "Existing", "Design", "restoreContributorInsights", "saveStateLocked", "forgetIndexFx", "initFx", "forgetFx"},
	"emulator/internal/stages/lag": {"Fuzzer", "NewFuzzer", "fuzzerOf", "gateFuzz", "StaleRead", "MissedWrite", "ParseMode",
		"readGate", "indexGate", "streamGate", "tableGates", "gatesOf", "syncRead", "switchRead", "saveLags",
		"spaceGates", "applySettings", "settingsOf", "lagTable", "LagSetting", "LagState", "IndexLag",
		"TableReadLag", "StreamLag", "ErrNoGSI", "ErrNoStream", "Lags", "restoreLags",
		"stampLag", "lagGates", "applyLagSettingsLocked", "applyIndexLagSetting", "lagSet"},
	"emulator/internal/stages/iam": {"identityOf", "leadingKeys", "resourcePolicies", "requestContext"},
	"emulator/internal/stages/conventions": {"convState", "newConvState", "convPolicy", "tablePolicy", "convCond",
		"convBatch", "convReq", "convTable", "convWrite", "inTx", "checkStream", "conventionsSnapshot", "checkTransactConventions",
		"readKey", "checkRead", "ConventionsReport", "ResetConventionsReport", "Conventions"},
	"emulator/internal/stages/throttle": {"throttleStage", "tableThrottle", "syncThrottle", "throttled",
		"throttleUse", "throttleError", "coreLast", "ThrottleConfig", "ThrottleTag", "VectorSearchTag", "Throttler",
		"thState"},
}

// stageWords are parts of a name the core's code may not hold at all: the
// instruments that moved out whole (an identifier containing one fails):
// the conventions check, the report's recorders with their settings and
// Contributor Insights' saving (the insights stage's), and the fx_*.go
// glue they left (initFx, forgetFx, forgetIndexFx, fxState).
var stageWords = []string{"onvention", "convcheck", "ContributorInsights", "Reporting", "Recorder", "recorder", "Fx", "fxState", "SetDesign"}

// stageLibraries are the libraries of the instruments that moved out
// whole: only their stages use them, and the core depends on none.
var stageLibraries = []string{"conventions", "emulator/internal/convcheck", "emulator/internal/stagestate"}

// TestCoreNamesNoStage: the core's code uses no name of a stage package
// and no identifier holding one of stageWords, and its dependencies (go
// list -deps) hold no stage package and no stage's library: an
// instrument plugs in through the stage seam.
func TestCoreNamesNoStage(t *testing.T) {
	dir := filepath.Join(root(t), corePkg)
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	forbidden := map[string]string{}
	for p, names := range stagePackages {
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
		var s scanner.Scanner
		s.Init(fset.AddFile(f, -1, len(src)), src, nil, 0) // comments skipped
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.IDENT {
				continue
			}
			if p, ok := forbidden[lit]; ok {
				t.Errorf("%s: the core uses %s, a name of the stage %s", fset.Position(pos), lit, p)
			}
			for _, w := range stageWords {
				if strings.Contains(lit, w) {
					t.Errorf("%s: the core names %s, an instrument that plugs in through the stage seam", fset.Position(pos), lit)
				}
			}
		}
	}
	const module = "github.com/dynamoemu/dynamoemu/"
	for _, p := range goList(t, "-json=ImportPath,Deps", "./"+corePkg) {
		for _, d := range p.Deps {
			require.False(t, strings.HasPrefix(d, module+stagesDir+"/"), "the core depends on the stage package %s", d)
			for _, lib := range stageLibraries {
				require.NotEqual(t, module+lib, d, "the core depends on %s, a stage's library", d)
			}
		}
	}
}

// TestStagesWired: every package under emulator/internal/stages is a
// stage package (stagePackages), and the emulator wires each
// (emulator/features.go: the stages it hands its service,
// service.Config.Stages).
func TestStagesWired(t *testing.T) {
	const module = "github.com/dynamoemu/dynamoemu/"
	for _, p := range goList(t, "-json=ImportPath", "./"+stagesDir+"/...") {
		rel := strings.TrimPrefix(p.ImportPath, module)
		_, ok := stagePackages[rel]
		require.True(t, ok, "%s is under %s: list it in stagePackages", rel, stagesDir)
	}
	src, err := os.ReadFile(filepath.Join(root(t), "emulator", "features.go"))
	require.NoError(t, err)
	for p := range stagePackages {
		require.Contains(t, string(src), `"`+module+p+`"`, "emulator/features.go does not wire the stage package %s", p)
	}
	require.Contains(t, string(src), "[]service.Stage{", "emulator/features.go installs no stage")
}

// TestSeamNoPassThrough: the feature seam (the core's feature*.go and
// stage*.go) declares no exported function that only hands its
// arguments to a library's (return lib.F(args...)): a feature imports the
// service's libraries (tablespec, readparams, ...) itself, so the seam
// keeps what needs the core.
func TestSeamNoPassThrough(t *testing.T) {
	for _, sf := range seamFiles(t, "feature*.go", "stage*.go") {
		fset, file := sf.fset, sf.file
		imported := map[string]bool{}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imported[name] = true
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Body == nil || len(fn.Body.List) != 1 {
				continue
			}
			ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			call, ok := ret.Results[0].(*ast.CallExpr)
			if !ok {
				continue
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && imported[pkg.Name] && passesParams(fn, call) {
				t.Errorf("%s: %s only calls %s.%s: let the feature call it", fset.Position(fn.Pos()), fn.Name.Name, pkg.Name, sel.Sel.Name)
			}
		}
	}
}

// passesParams reports whether call's arguments are fn's parameters, in
// order.
func passesParams(fn *ast.FuncDecl, call *ast.CallExpr) bool {
	var params []string
	for _, p := range fn.Type.Params.List {
		for _, n := range p.Names {
			params = append(params, n.Name)
		}
	}
	if len(params) != len(call.Args) {
		return false
	}
	for i, a := range call.Args {
		if id, ok := a.(*ast.Ident); !ok || id.Name != params[i] {
			return false
		}
	}
	return true
}

// seamNouns are the types a feature reaches the core through (the
// core's feature*.go, docs/architecture.md "The feature seam"), each
// with what it is for; "" stands for the seam's functions. An exported
// method of the seam is a method of one of these, so a feature's need
// is met on a noun it shares with the others, not on a type of its own.
var seamNouns = map[string]string{
	"":                 "plugging in: Op, DataOp, APIOp, NewState, NewServiceState, UpdateTableMember",
	"Searching":        "a vector search inside Call.Search: what it consumed (Searched)",
	"Registrar":        "a feature's registration with one service: its operations' and its old records' members (ExtMembers)",
	"Call":             "one request: its identity, its tables' lookups, and the core's reads and writes through the pipeline",
	"Table":            "a live table: its identity, keys, definition, storage and the one funnel of its changes (Change)",
	"Definition":       "a table's definition, read (the Defined and Describe hooks', a copy's)",
	"Edit":             "a definition being changed (Table.Change, Call.MakeTable)",
	"Space":            "a namespace: its tables, DB metadata, side files, clock and logger",
	"State":            "a feature's or a stage's per-namespace state, by its key",
	"ServiceState":     "a feature's or a stage's per-service state, by its key",
	"Service":          "the service, as a hook (Starting, Configure) or a per-service state sees it",
	"Namespace":        "a namespace outside a request, as a Space (the event source mappings' pollers)",
	"TableCopy":        "a table as it was (a backup's, a restore's source)",
	"Dropped":          "a table just deleted (a Dropped hook's)",
	"TableDescription": "DescribeTable's answer, which a Describe hook adds members to",
	"OwnedMembers":     "the UpdateTable members the features own, for the request decoder",
	"VectorIndexView":  "a vector index, as SearchVectors reads it",
}

// maxSeamFuncs is the most exported functions and methods the core's
// feature*.go may declare. It may only fall: a feature that needs more
// builds it in its own package from what the seam has (the commit log
// says how it came down). The whole core's surface is capped too
// (TestCoreSurface, size_test.go).
const maxSeamFuncs = 112

// TestSeamNarrow: the feature seam (the core's feature*.go) declares at
// most maxSeamFuncs exported functions and methods, each a function of
// the seam or a method of one of seamNouns; a new feature-specific
// accessor fails it, and so does a new noun not listed with what it is
// for.
func TestSeamNarrow(t *testing.T) {
	n := 0
	for _, sf := range seamFiles(t, "feature*.go") {
		fset, file := sf.fset, sf.file
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			n++
			noun := ""
			if fn.Recv != nil {
				noun = receiverName(fn.Recv.List[0].Type)
			}
			if _, ok := seamNouns[noun]; !ok {
				t.Errorf("%s: %s is a method of %s, not one of the seam's nouns (seamNouns): meet the need on a noun the seam has", fset.Position(fn.Pos()), fn.Name.Name, noun)
			}
		}
	}
	require.LessOrEqualf(t, n, maxSeamFuncs,
		"the feature seam declares %d exported functions and methods, more than %d: build the feature's need in its own package from what the seam has", n, maxSeamFuncs)
}

// seamFile is one parsed file of the seam.
type seamFile struct {
	fset *token.FileSet
	file *ast.File
}

// seamFiles parses the core's non-test files that match patterns (the
// seam's feature*.go, stage*.go).
func seamFiles(t *testing.T, patterns ...string) []seamFile {
	var out []seamFile
	for _, pat := range patterns {
		files, err := filepath.Glob(filepath.Join(root(t), corePkg, pat))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, nil, 0)
			require.NoError(t, err)
			out = append(out, seamFile{fset, file})
		}
	}
	return out
}

// receiverName is the name of a method receiver's type (T of *T, T[X]).
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
