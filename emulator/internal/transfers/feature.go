package transfers

import (
	"cmp"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Feature is the transfers feature (service.Config.Features): exports to and imports
// from the directory standing for Amazon S3, and bulk operations. Its
// per-namespace state is the list of each kind of operation
// (transfers.go); with persistence it is saved in the namespace's DB
// metadata and put back when the namespace is loaded
// (transfers_persist.go).
type Feature struct{}

// Name is the feature's name.
func (Feature) Name() string { return "transfers" }

// moves is every namespace's transfers.
var moves = service.NewState[transferSet]()

// Register installs the export, import and bulk operations.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "ExportTableToPointInTime", boundary.TableCopy, exportTable)
	service.Op(r, "DescribeExport", boundary.Decl{On: boundary.Export, Access: boundary.Describe}, describeExport)
	service.Op(r, "ListExports", boundary.List, listExports)
	service.Op(r, "ImportTable", boundary.TableMake, importTable)
	service.Op(r, "DescribeImport", boundary.Decl{On: boundary.Import, Access: boundary.Describe}, describeImport)
	service.Op(r, "ListImports", boundary.List, listImports)
	service.Op(r, "StartBulkPutItems", boundary.TableWrite, startBulkPutItems)
	service.Op(r, "DescribeBulkOperation", boundary.Decl{On: boundary.Bulk, Access: boundary.Describe}, describeBulkOperation)
	service.Op(r, "ListBulkOperations", boundary.List, listBulkOperations)
	service.Op(r, "CancelBulkOperation", boundary.Decl{On: boundary.Bulk, Access: boundary.WholeWrite}, cancelBulkOperation)
}

// Hooks put back a namespace's transfers when it is loaded.
func (Feature) Hooks() service.Hooks { return service.Hooks{Loaded: loaded} }

// str is *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// cmpOr is s, or def when s is empty.
func cmpOr(s, def string) string { return cmp.Or(s, def) }
