package transfers

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/ion"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Imports from S3: ImportTable, DescribeImport and ListImports (AWS API
// reference, API_ImportTable; Developer Guide, "DynamoDB data import from
// Amazon S3: formats"). ImportTable creates a new table from
// TableCreationParameters (CreateTable's checks and errors) and writes
// every item of the objects under S3KeyPrefix in the bucket's directory
// (s3dir.go), in key order, through PutItem (so the table's indexes,
// stream and conventions see them as any write). Formats: DYNAMODB_JSON
// (a line {"Item":{...}} per item, as exports write), CSV (a header line,
// or InputFormatOptions.Csv.HeaderList; key attributes typed by the
// AttributeDefinitions, every other cell a string, empty cells left out).
// ION (ion/read.go: a line per item as exports write it, or AWS's
// list of {Item:...} structs). Compression: NONE, GZIP or ZSTD
// (transfer_input.go); an object not compressed as said counts one
// error and is skipped. A line that is not an item, or an item PutItem
// refuses, counts in ErrorCount and is skipped, as AWS logs it to
// CloudWatch and goes on; the import then ends FAILED
// (ItemValidationError) with the other items imported, as AWS's does.
// The import runs inside the request; it is IN_PROGRESS for the
// transient delay, then COMPLETED or FAILED.

// importJob is one import.
type importJob struct {
	desc    ImportTableDescription // as at the end of IN_PROGRESS
	doneAt  time.Time
	request string
}

// S3BucketSource is AWS's S3BucketSource.
type S3BucketSource struct {
	S3Bucket      *string `json:"S3Bucket"`
	S3BucketOwner *string `json:"S3BucketOwner,omitempty"`
	S3KeyPrefix   *string `json:"S3KeyPrefix,omitempty"`
}

// CsvOptions is AWS's CsvOptions.
type CsvOptions struct {
	Delimiter  *string  `json:"Delimiter,omitempty"`
	HeaderList []string `json:"HeaderList,omitempty"`
}

// InputFormatOptions is AWS's InputFormatOptions.
type InputFormatOptions struct {
	Csv *CsvOptions `json:"Csv,omitempty"`
}

// ImportTableInput is the ImportTable request.
type ImportTableInput struct {
	ClientToken             *string                   `json:"ClientToken"`
	S3BucketSource          *S3BucketSource           `json:"S3BucketSource"`
	InputFormat             *string                   `json:"InputFormat"`
	InputFormatOptions      *InputFormatOptions       `json:"InputFormatOptions"`
	InputCompressionType    *string                   `json:"InputCompressionType"`
	TableCreationParameters *service.CreateTableInput `json:"TableCreationParameters"`
}

// TableCreationParameters is the part of CreateTable an import takes,
// as DescribeImport answers it.
type TableCreationParameters struct {
	TableName              string                         `json:"TableName"`
	AttributeDefinitions   []service.AttributeDefinition  `json:"AttributeDefinitions"`
	KeySchema              []service.KeySchemaElement     `json:"KeySchema"`
	BillingMode            *string                        `json:"BillingMode,omitempty"`
	ProvisionedThroughput  *service.ProvisionedThroughput `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput     *service.OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	SSESpecification       *service.SSESpecification      `json:"SSESpecification,omitempty"`
	GlobalSecondaryIndexes []service.GlobalSecondaryIndex `json:"GlobalSecondaryIndexes,omitempty"`
}

// ImportTableDescription is AWS's ImportTableDescription.
type ImportTableDescription struct {
	ImportArn               string                   `json:"ImportArn"`
	ImportStatus            string                   `json:"ImportStatus"`
	TableArn                string                   `json:"TableArn"`
	TableId                 string                   `json:"TableId"`
	ClientToken             string                   `json:"ClientToken,omitempty"`
	S3BucketSource          S3BucketSource           `json:"S3BucketSource"`
	ErrorCount              int64                    `json:"ErrorCount"`
	CloudWatchLogGroupArn   string                   `json:"CloudWatchLogGroupArn,omitempty"`
	InputFormat             string                   `json:"InputFormat"`
	InputFormatOptions      *InputFormatOptions      `json:"InputFormatOptions,omitempty"`
	InputCompressionType    string                   `json:"InputCompressionType"`
	TableCreationParameters *TableCreationParameters `json:"TableCreationParameters"`
	StartTime               service.EpochTime        `json:"StartTime"`
	EndTime                 *service.EpochTime       `json:"EndTime,omitempty"`
	ProcessedSizeBytes      int64                    `json:"ProcessedSizeBytes"`
	ProcessedItemCount      int64                    `json:"ProcessedItemCount"`
	ImportedItemCount       int64                    `json:"ImportedItemCount"`
	FailureCode             string                   `json:"FailureCode,omitempty"`
	FailureMessage          string                   `json:"FailureMessage,omitempty"`
}

// ImportTableOutput is the ImportTable response.
type ImportTableOutput struct {
	ImportTableDescription ImportTableDescription `json:"ImportTableDescription"`
}

// DescribeImportInput is the DescribeImport request.
type DescribeImportInput struct {
	ImportArn *string `json:"ImportArn"`
}

// DescribeImportOutput is the DescribeImport response.
type DescribeImportOutput struct {
	ImportTableDescription ImportTableDescription `json:"ImportTableDescription"`
}

// ListImportsInput is the ListImports request.
type ListImportsInput struct {
	TableArn  *string `json:"TableArn"`
	PageSize  *int64  `json:"PageSize"`
	NextToken *string `json:"NextToken"`
}

// ImportSummary is one import listed.
type ImportSummary struct {
	ImportArn             string             `json:"ImportArn"`
	ImportStatus          string             `json:"ImportStatus"`
	TableArn              string             `json:"TableArn"`
	S3BucketSource        S3BucketSource     `json:"S3BucketSource"`
	CloudWatchLogGroupArn string             `json:"CloudWatchLogGroupArn,omitempty"`
	InputFormat           string             `json:"InputFormat"`
	StartTime             service.EpochTime  `json:"StartTime"`
	EndTime               *service.EpochTime `json:"EndTime,omitempty"`
}

// ListImportsOutput is the ListImports response.
type ListImportsOutput struct {
	ImportSummaryList []ImportSummary `json:"ImportSummaryList"`
	NextToken         string          `json:"NextToken,omitempty"`
}

// at is the import's description at now.
func (j *importJob) at(now time.Time) ImportTableDescription {
	d := j.desc
	if d.ImportStatus != "IN_PROGRESS" && now.Before(j.doneAt) {
		d.ImportStatus, d.EndTime = "IN_PROGRESS", nil
	}
	return d
}

func importTable(c service.Call, in *ImportTableInput) (*ImportTableOutput, error) {
	var cs apierr.Constraints
	var bucketDir string
	prefixOK := true
	if apierr.NotNull(&cs, in.S3BucketSource, "s3BucketSource") {
		src := in.S3BucketSource
		if apierr.NotNull(&cs, src.S3Bucket, "s3BucketSource.s3Bucket") {
			bucketDir = s3Bucket(c, &cs, *src.S3Bucket, "s3BucketSource.s3Bucket")
		}
		prefixOK = src.S3KeyPrefix == nil || s3Key(&cs, *src.S3KeyPrefix, "s3BucketSource.s3KeyPrefix")
	}
	if apierr.NotNull(&cs, in.InputFormat, "inputFormat") {
		apierr.Enum(&cs, in.InputFormat, "inputFormat", "DYNAMODB_JSON", "ION", "CSV")
	}
	apierr.Enum(&cs, in.InputCompressionType, "inputCompressionType", "GZIP", "ZSTD", "NONE")
	apierr.NotNull(&cs, in.TableCreationParameters, "tableCreationParameters")
	transferTokenPattern(&cs, in.ClientToken)
	if o := in.InputFormatOptions; o != nil && o.Csv != nil {
		if d := o.Csv.Delimiter; d != nil && len(*d) != 1 {
			cs.Add(apierr.Quote(*d), "inputFormatOptions.csv.delimiter", apierr.LenLE(1))
		}
		if d := o.Csv.Delimiter; d != nil && (len(*d) != 1 || !strings.Contains(",;:|\t ", *d)) {
			cs.Add(apierr.Quote(*d), "inputFormatOptions.csv.delimiter", apierr.ConstraintCsvDelimiter)
		}
		if len(o.Csv.HeaderList) > 255 {
			cs.Add("'"+strings.Join(o.Csv.HeaderList, ",")+"'", "inputFormatOptions.csv.headerList", "Member must have length less than or equal to 255")
		}
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if !prefixOK {
		return nil, apierr.Validation(apierr.MsgS3PathInvalid("S3KeyPrefix", *in.S3BucketSource.S3KeyPrefix))
	}
	if o := in.InputFormatOptions; o != nil && o.Csv != nil && *in.InputFormat != "CSV" {
		// ack-api-quirks DDB-IMPORT-009
		return nil, apierr.Validation(apierr.MsgImportFormatOptionsUnsupported(*in.InputFormat))
	}
	params := in.TableCreationParameters
	req, _ := json.Marshal(in)
	if d, found, err := importReplay(c, in, req); found { // imports_token.go
		if err != nil {
			return nil, err
		}
		return &ImportTableOutput{ImportTableDescription: d}, nil
	}
	// TableCreationParameters has no LSIs, stream, tags, class or
	// deletion protection: only what it has goes to CreateTable.
	create := &service.CreateTableInput{
		TableName: params.TableName, AttributeDefinitions: params.AttributeDefinitions, KeySchema: params.KeySchema,
		BillingMode: params.BillingMode, ProvisionedThroughput: params.ProvisionedThroughput,
		OnDemandThroughput: params.OnDemandThroughput, SSESpecification: params.SSESpecification,
		GlobalSecondaryIndexes: params.GlobalSecondaryIndexes,
	}
	if out, done, err := importFromMissingBucket(c, in, create, bucketDir, req); done { // imports_bucket.go
		return out, err
	}
	inner := c.Detached()
	created, err := inner.CreateTable(create) // a first table registers the namespace
	if err != nil {
		return nil, err
	}
	td := created.TableDescription
	j := newImportJob(c, in, req, td.TableArn, td.TableId, td.TableName)
	r := &importRun{c: inner, table: td.TableName, d: &j.desc, params: params, opts: in.InputFormatOptions}
	if err := r.run(bucketDir, str(in.S3BucketSource.S3KeyPrefix)); err != nil {
		j.desc.ImportStatus, j.desc.FailureCode, j.desc.FailureMessage = "FAILED", "ValidationError", err.Error()
	} else if j.desc.ErrorCount > 0 {
		// AWS ends an import some of whose items it refused FAILED, the
		// others imported (ack-api-quirks DDB-IMPORT-020).
		j.desc.ImportStatus, j.desc.FailureCode, j.desc.FailureMessage = "FAILED", apierr.ImportItemValidationError, apierr.MsgImportItemValidationError
		if r.firstRefusal != "" {
			// AWS's words, then the emulator's: the first refused item's
			// error (a conventions refusal names its rule, the row and
			// why), which AWS would log to CloudWatch.
			j.desc.FailureMessage += " " + apierr.MsgImportFirstRefusal(j.desc.ErrorCount, r.firstRefusal)
		}
	}
	return recordImport(c, j), nil
}

// newImportJob is the COMPLETED import of in into the table tableArn,
// tableID, name, started now.
func newImportJob(c service.Call, in *ImportTableInput, req []byte, tableArn, tableID, name string) *importJob {
	params := in.TableCreationParameters
	return &importJob{request: string(req), doneAt: c.TransientUntil(), desc: ImportTableDescription{
		ImportArn: tableArn + "/import/" + transferID(c.Now()), ImportStatus: "COMPLETED",
		TableArn: tableArn, TableId: tableID, ClientToken: str(in.ClientToken),
		S3BucketSource: *in.S3BucketSource, InputFormat: *in.InputFormat, InputFormatOptions: in.InputFormatOptions,
		InputCompressionType: cmpOr(str(in.InputCompressionType), "NONE"),
		TableCreationParameters: &TableCreationParameters{
			TableName: name, AttributeDefinitions: params.AttributeDefinitions, KeySchema: params.KeySchema,
			BillingMode: params.BillingMode, ProvisionedThroughput: params.ProvisionedThroughput,
			OnDemandThroughput: params.OnDemandThroughput, SSESpecification: params.SSESpecification,
			GlobalSecondaryIndexes: params.GlobalSecondaryIndexes,
		},
		StartTime: service.EpochTime(c.Now()),
	}}
}

// recordImport ends j now, keeps it (and persists it) in the namespace's
// transfers and answers it.
func recordImport(c service.Call, j *importJob) *ImportTableOutput {
	j.desc.EndTime = tablespec.EpochPtr(c.Now())
	saveTransfer(c.Space(), "import", j.desc.ImportArn, j.desc, j.doneAt, j.request, false) // transfers_persist.go
	set := moves.Kept(c)
	set.mu.Lock()
	set.imports = append(set.imports, j)
	set.mu.Unlock()
	return &ImportTableOutput{ImportTableDescription: j.at(c.Now())}
}

// importRun is one import's reading and writing.
type importRun struct {
	c      service.Call
	table  string
	d      *ImportTableDescription
	params *service.CreateTableInput
	opts   *InputFormatOptions

	create       *string              // an item's creation's condition (createGuard)
	names        wire.ExpressionNames // its names
	refused      []wire.WireItem      // items refused, to try again (retry)
	firstRefusal string               // the first item refused for good: its error's type and message
}

// run imports every object under prefix in the bucket's directory.
func (r *importRun) run(bucketDir, prefix string) error {
	keys, err := listObjects(bucketDir, prefix)
	if errors.Is(err, errNoObjects) {
		return nil // AWS: COMPLETED, the table empty (ack-api-quirks DDB-IMPORT-012)
	}
	if err != nil {
		return err
	}
	for _, key := range keys {
		if err := r.object(filepath.Join(bucketDir, filepath.FromSlash(key))); err != nil {
			return err
		}
	}
	r.retry()
	return nil
}

// object imports one object's items.
func (r *importRun) object(path string) error {
	in, err := openInput(path, r.d.InputCompressionType)
	if errors.Is(err, errNotCompressed) {
		r.d.ErrorCount++ // AWS skips the object, logging it
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	switch r.d.InputFormat {
	case "CSV":
		return r.csv(in)
	case "ION":
		readIonObject(in, func(rec ion.Record) {
			r.d.ProcessedSizeBytes += int64(len(rec.Raw))
			r.d.ProcessedItemCount++
			if rec.Err != nil {
				r.d.ErrorCount++
				return
			}
			r.item(rec.Item)
		})
		return nil
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 8<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		r.d.ProcessedSizeBytes += int64(len(line))
		r.d.ProcessedItemCount++
		var rec struct {
			Item json.RawMessage `json:"Item"`
		}
		if json.Unmarshal(line, &rec) != nil || len(rec.Item) == 0 {
			r.d.ErrorCount++
			continue
		}
		r.item(rec.Item)
	}
	if err := sc.Err(); err != nil {
		r.d.ErrorCount++
	}
	return nil
}

// item writes one item given as DynamoDB JSON.
func (r *importRun) item(raw []byte) {
	it, err := wire.DecodeItem(raw)
	if err != nil {
		r.d.ErrorCount++
		return
	}
	r.put(wire.ItemToWire(it))
}

// csv imports a CSV object.
func (r *importRun) csv(in io.Reader) error {
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = -1
	if o := r.opts; o != nil && o.Csv != nil && o.Csv.Delimiter != nil {
		cr.Comma = rune((*o.Csv.Delimiter)[0])
	}
	var header []string
	if o := r.opts; o != nil && o.Csv != nil && len(o.Csv.HeaderList) > 0 {
		header = o.Csv.HeaderList
	}
	types := map[string]string{}
	for _, a := range r.params.AttributeDefinitions {
		if a.AttributeName != nil && a.AttributeType != nil {
			types[*a.AttributeName] = *a.AttributeType
		}
	}
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			r.d.ErrorCount++
			if errors.Is(err, csv.ErrFieldCount) || errors.As(err, new(*csv.ParseError)) {
				continue
			}
			return nil
		}
		if header == nil {
			header = row
			continue
		}
		r.d.ProcessedItemCount++
		var raw []byte
		for i, cell := range row {
			r.d.ProcessedSizeBytes += int64(len(cell))
			if i >= len(header) || cell == "" {
				continue
			}
			if raw == nil {
				raw = append(raw, '{')
			} else {
				raw = append(raw, ',')
			}
			raw = append(raw, jsonString(header[i])...)
			switch types[header[i]] {
			case "N":
				raw = append(raw, `:{"N":`...)
				raw = append(raw, jsonString(cell)...)
			case "B":
				raw = append(raw, `:{"B":`...)
				raw = append(raw, jsonString(base64.StdEncoding.EncodeToString([]byte(cell)))...)
			default:
				raw = append(raw, `:{"S":`...)
				raw = append(raw, jsonString(cell)...)
			}
			raw = append(raw, '}')
		}
		if raw == nil {
			r.d.ErrorCount++
			continue
		}
		raw = append(raw, '}')
		it, err := wire.DecodeItem(raw)
		if err != nil {
			r.d.ErrorCount++
			continue
		}
		r.put(wire.ItemToWire(it))
	}
}

// maxImportRetries bounds the refused items an import keeps to try
// again once the others are written: a version chain read in key order
// (<sk>@10 before <sk>@2) has its later versions refused until the
// earlier ones exist. Past it, a refused item is an error at once.
const maxImportRetries = 10_000

// put writes one item through PutItem as the item's creation (the
// table is new: a condition that its key does not exist, so that the
// table's write checks see a create, as an application's first write
// of a row carries it); an item whose key the import already wrote is
// put again without it, the later one kept. A refused item is tried
// again after the others (retry), then counts as an error.
func (r *importRun) put(item wire.WireItem) {
	if err := r.write(item); err != nil {
		if len(r.refused) < maxImportRetries {
			r.refused = append(r.refused, item)
			return
		}
		r.refuse(err)
		return
	}
	r.d.ImportedItemCount++
}

// write puts item, as a create first (put).
func (r *importRun) write(item wire.WireItem) error {
	name := r.table
	if r.create == nil {
		r.createGuard()
	}
	err := r.c.PutItem(&service.PutItemInput{TableName: &name, Item: item, ConditionExpression: r.create, ExpressionAttributeNames: r.names})
	if errors.Is(err, apierr.ErrConditionalCheckFailed) {
		err = r.c.PutItem(&service.PutItemInput{TableName: &name, Item: item})
	}
	return err
}

// createGuard makes the condition of an item's creation:
// attribute_not_exists of each key attribute.
func (r *importRun) createGuard() {
	t, ok := r.c.Space().Table(r.table)
	if !ok {
		return
	}
	ks := t.Schema()
	cond := "attribute_not_exists(#k0)"
	r.names = wire.ExpressionNames{"#k0": ks.Partition.Name}
	if ks.HasSort() {
		cond += " AND attribute_not_exists(#k1)"
		r.names["#k1"] = ks.Sort.Name
	}
	r.create = &cond
}

// retry writes the refused items again, pass after pass, while a pass
// writes one; those still refused count as errors, the first one's
// refusal kept for the import's FailureMessage.
func (r *importRun) retry() {
	for len(r.refused) > 0 {
		var still []wire.WireItem
		var last error
		for _, item := range r.refused {
			if err := r.write(item); err != nil {
				still, last = append(still, item), err
				continue
			}
			r.d.ImportedItemCount++
		}
		if len(still) == len(r.refused) {
			for range still {
				r.refuse(last)
			}
			return
		}
		r.refused = still
	}
}

// refuse counts a refused item, keeping the first refusal's message.
func (r *importRun) refuse(err error) {
	r.d.ErrorCount++
	if r.firstRefusal == "" {
		if ae, ok := apierr.Classify(err); ok {
			r.firstRefusal = ae.Class.Name + ": " + ae.Msg
		} else {
			r.firstRefusal = err.Error()
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// importKind is the imports of a transferSet (transfers_list.go).
var importKind = transferKind[*importJob, ImportTableDescription]{
	jobs: func(s *transferSet) []*importJob { return s.imports },
	arn:  func(j *importJob) string { return j.desc.ImportArn },
	at:   (*importJob).at,
	token: func(j *importJob) (string, time.Time, string) {
		return j.desc.ClientToken, j.desc.StartTime.Time(), j.request
	},
	gone:     func(arn string) error { return apierr.New(apierr.ErrImportNotFound, apierr.MsgImportNotFound(arn)) },
	shape:    transferARNShape("import"),
	invalid:  apierr.MsgImportARNInvalid,
	badToken: func(tok string) error { return apierr.Validation(apierr.MsgTransferNextTokenInvalid(tok)) },
}

func describeImport(c service.Call, in *DescribeImportInput) (*DescribeImportOutput, error) {
	d, err := importKind.describe(c, in.ImportArn, "importArn")
	if err != nil {
		return nil, err
	}
	return &DescribeImportOutput{ImportTableDescription: d}, nil
}

func listImports(c service.Call, in *ListImportsInput) (*ListImportsOutput, error) {
	list, next, err := importKind.list(c, listPage{size: in.PageSize, member: "pageSize", def: 25, token: in.NextToken,
		more: func(cs *apierr.Constraints) {
			if in.TableArn != nil && (len(*in.TableArn) < 1 || len(*in.TableArn) > 1024) {
				cs.Add(apierr.Quote(*in.TableArn), "tableArn", apierr.LenLE(1024))
			}
		}},
		func(j *importJob) bool { return in.TableArn == nil || j.desc.TableArn == *in.TableArn })
	if err != nil {
		return nil, err
	}
	out := &ListImportsOutput{ImportSummaryList: make([]ImportSummary, len(list)), NextToken: next}
	for i, d := range list {
		out.ImportSummaryList[i] = ImportSummary{ImportArn: d.ImportArn, ImportStatus: d.ImportStatus, TableArn: d.TableArn,
			S3BucketSource: d.S3BucketSource, InputFormat: d.InputFormat, StartTime: d.StartTime, EndTime: d.EndTime}
	}
	return out, nil
}
