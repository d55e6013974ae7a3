package transfers

import (
	"encoding/json"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Bulk put items from S3: StartBulkPutItems, DescribeBulkOperation,
// ListBulkOperations and CancelBulkOperation (AWS API reference,
// API_StartBulkPutItems and its siblings; Developer Guide, "Amazon S3
// input formats for bulk put items", "Running a bulk put items
// operation", "Bulk put items output and reconciliation"). They came
// with aws-sdk-go-v2/service/dynamodb v1.73 and are built like ImportTable
// (imports.go): the bucket is a directory under the export directory
// (s3dir.go), every object under S3KeyPrefix is read in key order, and
// every item is written through PutItem into the EXISTING table, so its
// indexes, stream, conventions and the commit hook see it as any write.
//
// Input (bulk_input.go): DYNAMODB_JSON, a line per item,
// {"Item":{...}} as exports write it, optionally with PutItem's
// ConditionExpression, ExpressionAttributeNames and
// ExpressionAttributeValues members beside Item (AWS documents per-item
// conditions in the input; the exact member names of its format were
// not found, PutItem's are ours). ION: each {Item:{...}} of the object
// (ion/read.go; an item only, no condition). Compression NONE, GZIP
// or ZSTD (transfer_input.go); an object not compressed as said fails
// the operation, naming it.
//
// Counts as AWS defines them: ProcessedItemCount counts every line read
// (written, failed or condition-check failed); FailedItemCount the lines
// that are not items or that PutItem refuses (parsing and validation
// errors); a false condition counts in neither failure count. Status:
// COMPLETED, COMPLETED_WITH_ERRORS when FailedItemCount > 0, FAILED when
// nothing could be read (no objects under the prefix, an unsupported
// format), with FailureCode and FailureMessage.
//
// Output (OutputS3Configuration, bulk_output.go): the failed lines of the
// OutputTypes asked for are written as DynamoDB JSON lines under
// <S3KeyPrefix>/AWSDynamoDB/bulk/<operation id>/ in the output bucket's
// directory (error.json, condition-check-failure.json, and a
// manifest.json naming them); the layout is ours, AWS's documented
// report layout was not found in detail.
//
// The operation runs inside the request; it is IN_PROGRESS for the
// transient delay (Config.TransientDelay), then in its final status.
// CancelBulkOperation within that window answers CANCELLING, the
// operation ends CANCELLED (the items are already written: AWS's
// cancellation does not remove written items either); cancelling a
// finished operation is a ValidationException (ours). Operations are
// kept like exports and imports (transfers.go, transfers_persist.go).

// Bulk operation statuses (AWS's BulkOperationStatus).
const (
	bulkInProgress          = "IN_PROGRESS"
	bulkCompleted           = "COMPLETED"
	bulkCompletedWithErrors = "COMPLETED_WITH_ERRORS"
	bulkCancelling          = "CANCELLING"
	bulkCancelled           = "CANCELLED"
	bulkFailed              = "FAILED"
)

// bulkJob is one bulk operation.
type bulkJob struct {
	desc      BulkOperationDescription // the final description
	doneAt    time.Time                // the end of IN_PROGRESS
	cancelled bool                     // CancelBulkOperation accepted
	request   string                   // the request, for ClientToken
}

// InputS3Configuration is AWS's InputS3Configuration.
type InputS3Configuration struct {
	InputFormat          *string `json:"InputFormat"`
	S3Bucket             *string `json:"S3Bucket"`
	InputCompressionType *string `json:"InputCompressionType,omitempty"`
	S3BucketOwner        *string `json:"S3BucketOwner,omitempty"`
	S3KeyPrefix          *string `json:"S3KeyPrefix,omitempty"`
}

// OutputS3Configuration is AWS's OutputS3Configuration.
type OutputS3Configuration struct {
	OutputType     []string `json:"OutputType"`
	S3Bucket       *string  `json:"S3Bucket"`
	S3BucketOwner  *string  `json:"S3BucketOwner,omitempty"`
	S3KeyPrefix    *string  `json:"S3KeyPrefix,omitempty"`
	S3SseAlgorithm *string  `json:"S3SseAlgorithm,omitempty"`
	S3SseKmsKeyId  *string  `json:"S3SseKmsKeyId,omitempty"`
}

// StartBulkPutItemsInput is the StartBulkPutItems request.
type StartBulkPutItemsInput struct {
	InputS3Configuration  *InputS3Configuration  `json:"InputS3Configuration"`
	OutputS3Configuration *OutputS3Configuration `json:"OutputS3Configuration"`
	TableName             *string                `json:"TableName"`
	ClientToken           *string                `json:"ClientToken"`
	MaxWriteRequestUnits  *int64                 `json:"MaxWriteRequestUnits"`
	PerformanceTier       *string                `json:"PerformanceTier"`
}

// BulkOperationBytes is AWS's BulkOperationBytes.
type BulkOperationBytes struct {
	BulkPutBytes int64 `json:"BulkPutBytes"`
}

// BulkOperationUsage is AWS's BulkOperationUsage: the bytes written to
// the table (index and vector index bytes are not counted apart).
type BulkOperationUsage struct {
	TableName    string              `json:"TableName"`
	BulkPutBytes int64               `json:"BulkPutBytes"`
	Table        *BulkOperationBytes `json:"Table,omitempty"`
}

// BulkOperationTableDetail is AWS's BulkOperationTableDetail.
type BulkOperationTableDetail struct {
	TableId   string `json:"TableId"`
	TableName string `json:"TableName"`
}

// BulkOperationDescription is AWS's BulkOperationDescription.
type BulkOperationDescription struct {
	BulkOperationArn      string                     `json:"BulkOperationArn"`
	BulkOperationStatus   string                     `json:"BulkOperationStatus"`
	BulkOperationUsage    []BulkOperationUsage       `json:"BulkOperationUsage,omitempty"`
	ClientToken           string                     `json:"ClientToken,omitempty"`
	EndTime               *service.EpochTime         `json:"EndTime,omitempty"`
	FailedItemCount       int64                      `json:"FailedItemCount"`
	FailureCode           string                     `json:"FailureCode,omitempty"`
	FailureMessage        string                     `json:"FailureMessage,omitempty"`
	InputS3Configuration  *InputS3Configuration      `json:"InputS3Configuration"`
	MaxWriteRequestUnits  *int64                     `json:"MaxWriteRequestUnits,omitempty"`
	OutputS3Configuration *OutputS3Configuration     `json:"OutputS3Configuration"`
	PerformanceTier       string                     `json:"PerformanceTier"`
	ProcessedInputBytes   *int64                     `json:"ProcessedInputBytes,omitempty"`
	ProcessedItemCount    int64                      `json:"ProcessedItemCount"`
	StartTime             service.EpochTime          `json:"StartTime"`
	TableDetails          []BulkOperationTableDetail `json:"TableDetails"`
	TotalInputBytes       *int64                     `json:"TotalInputBytes,omitempty"`
}

// StartBulkPutItemsOutput is the StartBulkPutItems response.
type StartBulkPutItemsOutput struct {
	BulkOperationDescription BulkOperationDescription `json:"BulkOperationDescription"`
}

// DescribeBulkOperationInput is the DescribeBulkOperation request.
type DescribeBulkOperationInput struct {
	BulkOperationArn *string `json:"BulkOperationArn"`
}

// DescribeBulkOperationOutput is the DescribeBulkOperation response.
type DescribeBulkOperationOutput struct {
	BulkOperationDescription BulkOperationDescription `json:"BulkOperationDescription"`
}

// ListBulkOperationsInput is the ListBulkOperations request.
type ListBulkOperationsInput struct {
	MaxResults *int64  `json:"MaxResults"`
	NextToken  *string `json:"NextToken"`
}

// BulkOperationSummary is one bulk operation listed.
type BulkOperationSummary struct {
	BulkOperationArn    string             `json:"BulkOperationArn"`
	BulkOperationStatus string             `json:"BulkOperationStatus"`
	StartTime           service.EpochTime  `json:"StartTime"`
	EndTime             *service.EpochTime `json:"EndTime,omitempty"`
}

// ListBulkOperationsOutput is the ListBulkOperations response.
type ListBulkOperationsOutput struct {
	BulkOperationsSummaryList []BulkOperationSummary `json:"BulkOperationsSummaryList"`
	NextToken                 string                 `json:"NextToken,omitempty"`
}

// CancelBulkOperationInput is the CancelBulkOperation request.
type CancelBulkOperationInput struct {
	BulkOperationArn *string `json:"BulkOperationArn"`
}

// CancelBulkOperationOutput is the CancelBulkOperation response.
type CancelBulkOperationOutput struct {
	BulkOperationArn    string `json:"BulkOperationArn"`
	BulkOperationStatus string `json:"BulkOperationStatus"`
}

// at is the operation's description at now.
func (j *bulkJob) at(now time.Time) BulkOperationDescription {
	d := j.desc
	switch {
	case now.Before(j.doneAt) && j.cancelled:
		d.BulkOperationStatus, d.EndTime, d.FailureCode, d.FailureMessage = bulkCancelling, nil, "", ""
	case now.Before(j.doneAt):
		d.BulkOperationStatus, d.EndTime, d.FailureCode, d.FailureMessage = bulkInProgress, nil, "", ""
	case j.cancelled:
		d.BulkOperationStatus = bulkCancelled
		d.FailureCode, d.FailureMessage = "BulkOperationCancelled", "The bulk operation was cancelled by request"
	}
	return d
}

func startBulkPutItems(c service.Call, in *StartBulkPutItemsInput) (*StartBulkPutItemsOutput, error) {
	var cs apierr.Constraints
	var inDir, outDir string
	prefixOK := true
	if apierr.NotNull(&cs, in.InputS3Configuration, "inputS3Configuration") {
		src := in.InputS3Configuration
		if apierr.NotNull(&cs, src.InputFormat, "inputS3Configuration.inputFormat") {
			apierr.Enum(&cs, src.InputFormat, "inputS3Configuration.inputFormat", "DYNAMODB_JSON", "ION")
		}
		if apierr.NotNull(&cs, src.S3Bucket, "inputS3Configuration.s3Bucket") {
			inDir = s3Bucket(c, &cs, *src.S3Bucket, "inputS3Configuration.s3Bucket")
		}
		apierr.Enum(&cs, src.InputCompressionType, "inputS3Configuration.inputCompressionType", "GZIP", "ZSTD", "NONE")
		prefixOK = src.S3KeyPrefix == nil || s3Key(&cs, *src.S3KeyPrefix, "inputS3Configuration.s3KeyPrefix")
	}
	if apierr.NotNull(&cs, in.OutputS3Configuration, "outputS3Configuration") {
		out := in.OutputS3Configuration
		if out.OutputType == nil {
			apierr.NotNull(&cs, (*string)(nil), "outputS3Configuration.outputType")
		}
		for _, t := range out.OutputType {
			apierr.Enum(&cs, &t, "outputS3Configuration.outputType", "ERROR", "CONDITION_CHECK_FAILURE")
		}
		if apierr.NotNull(&cs, out.S3Bucket, "outputS3Configuration.s3Bucket") {
			outDir = s3Bucket(c, &cs, *out.S3Bucket, "outputS3Configuration.s3Bucket")
		}
		apierr.Enum(&cs, out.S3SseAlgorithm, "outputS3Configuration.s3SseAlgorithm", "AES256", "KMS")
		if out.S3KeyPrefix != nil && !s3Key(&cs, *out.S3KeyPrefix, "outputS3Configuration.s3KeyPrefix") {
			prefixOK = false
		}
	}
	apierr.NotNull(&cs, in.TableName, "tableName")
	if in.MaxWriteRequestUnits != nil && *in.MaxWriteRequestUnits < 1024 {
		cs.Add(apierr.QuoteInt(*in.MaxWriteRequestUnits), "maxWriteRequestUnits", apierr.ValGE(1024))
	}
	apierr.Enum(&cs, in.PerformanceTier, "performanceTier", "STANDARD", "ACCELERATED")
	if in.ClientToken != nil && (len(*in.ClientToken) < 1 || len(*in.ClientToken) > 36) {
		cs.Add(apierr.Quote(*in.ClientToken), "clientToken", apierr.LenLE(36))
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if !prefixOK {
		return nil, apierr.Validation(apierr.MsgS3PathInvalid("S3KeyPrefix", str(in.InputS3Configuration.S3KeyPrefix)+" "+str(in.OutputS3Configuration.S3KeyPrefix)))
	}
	t, err := c.LookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	req, _ := json.Marshal(in)
	if d, found, err := bulkKind.reused(c, in.ClientToken, req, apierr.New(apierr.ErrIdempotentParameterMismatch, apierr.MsgBulkClientTokenMismatch)); found {
		if err != nil {
			return nil, err
		}
		return &StartBulkPutItemsOutput{BulkOperationDescription: d}, nil
	}
	name := t.Info().Name
	arn := c.TableARN(name)
	id := transferID(c.Now())
	src := *in.InputS3Configuration
	src.InputCompressionType = strPtr(cmpOr(str(src.InputCompressionType), "NONE"))
	j := &bulkJob{request: string(req), doneAt: c.TransientUntil(), desc: BulkOperationDescription{
		BulkOperationArn: arn + "/bulk-operation/" + id, BulkOperationStatus: bulkCompleted,
		ClientToken: str(in.ClientToken), InputS3Configuration: &src, OutputS3Configuration: in.OutputS3Configuration,
		MaxWriteRequestUnits: in.MaxWriteRequestUnits, PerformanceTier: cmpOr(str(in.PerformanceTier), "STANDARD"),
		StartTime: service.EpochTime(c.Now()), TableDetails: []BulkOperationTableDetail{{TableId: t.Info().ID, TableName: name}},
	}}
	r := &bulkRun{c: c.Detached(), table: name, d: &j.desc}
	if err := r.run(inDir, str(src.S3KeyPrefix)); err != nil {
		j.desc.BulkOperationStatus, j.desc.FailureCode, j.desc.FailureMessage = bulkFailed, "ValidationError", err.Error()
	} else if j.desc.FailedItemCount > 0 {
		j.desc.BulkOperationStatus = bulkCompletedWithErrors
	}
	if err := r.report(outDir, in.OutputS3Configuration, id); err != nil && j.desc.BulkOperationStatus != bulkFailed {
		j.desc.BulkOperationStatus, j.desc.FailureCode, j.desc.FailureMessage = bulkFailed, "S3WriteError", err.Error()
	}
	j.desc.BulkOperationUsage = []BulkOperationUsage{{TableName: name, BulkPutBytes: r.putBytes, Table: &BulkOperationBytes{BulkPutBytes: r.putBytes}}}
	j.desc.EndTime = tablespec.EpochPtr(c.Now())
	saveTransfer(c.Space(), "bulk", j.desc.BulkOperationArn, j.desc, j.doneAt, j.request, false) // transfers_persist.go
	set := moves.Kept(c)
	set.mu.Lock()
	set.bulks = append(set.bulks, j)
	d := j.at(c.Now())
	set.mu.Unlock()
	return &StartBulkPutItemsOutput{BulkOperationDescription: d}, nil
}

func strPtr(s string) *string { return &s }

// bulkARN checks a BulkOperationArn member (AWS's model: 37 to 1024
// characters).
func bulkARN(arn *string) error {
	var cs apierr.Constraints
	apierr.ARN(&cs, arn, "bulkOperationArn")
	return cs.Err()
}

// findBulkLocked returns the operation whose ARN is arn; set.mu is held.
func (set *transferSet) findBulkLocked(arn string) *bulkJob {
	for _, j := range set.bulks {
		if j.desc.BulkOperationArn == arn {
			return j
		}
	}
	return nil
}

// bulkKind is the bulk operations of a transferSet (transfers_list.go).
var bulkKind = transferKind[*bulkJob, BulkOperationDescription]{
	jobs: func(s *transferSet) []*bulkJob { return s.bulks },
	arn:  func(j *bulkJob) string { return j.desc.BulkOperationArn },
	at:   (*bulkJob).at,
	token: func(j *bulkJob) (string, time.Time, string) {
		return j.desc.ClientToken, j.desc.StartTime.Time(), j.request
	},
	gone:     func(arn string) error { return apierr.ResourceNotFound(apierr.MsgBulkOperationNotFound(arn)) },
	badToken: func(string) error { return apierr.Validation(apierr.MsgInvalidNextToken) },
}

func describeBulkOperation(c service.Call, in *DescribeBulkOperationInput) (*DescribeBulkOperationOutput, error) {
	d, err := bulkKind.describe(c, in.BulkOperationArn, "bulkOperationArn")
	if err != nil {
		return nil, err
	}
	return &DescribeBulkOperationOutput{BulkOperationDescription: d}, nil
}

func cancelBulkOperation(c service.Call, in *CancelBulkOperationInput) (*CancelBulkOperationOutput, error) {
	if err := bulkARN(in.BulkOperationArn); err != nil {
		return nil, err
	}
	set := moves.Of(c)
	set.mu.Lock()
	j := set.findBulkLocked(*in.BulkOperationArn)
	if j == nil {
		set.mu.Unlock()
		return nil, apierr.ResourceNotFound(apierr.MsgBulkOperationNotFound(*in.BulkOperationArn))
	}
	switch st := j.at(c.Now()).BulkOperationStatus; st {
	case bulkInProgress:
		j.cancelled = true
		save := j.saveLocked(c.Space())
		set.mu.Unlock()
		save()
	case bulkCancelling:
		set.mu.Unlock()
	default:
		set.mu.Unlock()
		return nil, apierr.Validation(apierr.MsgBulkOperationNotCancellable(*in.BulkOperationArn, st))
	}
	return &CancelBulkOperationOutput{BulkOperationArn: j.desc.BulkOperationArn, BulkOperationStatus: bulkCancelling}, nil
}

func listBulkOperations(c service.Call, in *ListBulkOperationsInput) (*ListBulkOperationsOutput, error) {
	// AWS lists the operations of the last 90 days, the most recent
	// first, 10 a page unless MaxResults (1 to 25) says otherwise
	// (API_ListBulkOperations); NextToken is hex, as its pattern wants.
	list, next, err := bulkKind.list(c, listPage{size: in.MaxResults, member: "maxResults", def: 10, token: in.NextToken, newestFirst: true},
		func(j *bulkJob) bool { return c.Now().Sub(j.desc.StartTime.Time()) <= 90*24*time.Hour })
	if err != nil {
		return nil, err
	}
	out := &ListBulkOperationsOutput{BulkOperationsSummaryList: make([]BulkOperationSummary, len(list)), NextToken: next}
	for i, d := range list {
		out.BulkOperationsSummaryList[i] = BulkOperationSummary{BulkOperationArn: d.BulkOperationArn, BulkOperationStatus: d.BulkOperationStatus,
			StartTime: d.StartTime, EndTime: d.EndTime}
	}
	return out, nil
}
