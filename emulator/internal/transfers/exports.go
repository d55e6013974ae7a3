package transfers

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/pitr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/ion"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Exports to S3: ExportTableToPointInTime, DescribeExport and ListExports
// (AWS API reference, API_ExportTableToPointInTime; Developer Guide,
// "DynamoDB table export output format"). The export directory stands
// for S3 (s3dir.go): an export of table T to bucket B and prefix P
// writes, as AWS does,
//
//	B/P/AWSDynamoDB/<ExportId>/_started
//	B/P/AWSDynamoDB/<ExportId>/data/<name>.json.gz    lines {"Item":{...}}
//	B/P/AWSDynamoDB/<ExportId>/manifest-files.json    a line per data file
//	B/P/AWSDynamoDB/<ExportId>/manifest-files.md5
//	B/P/AWSDynamoDB/<ExportId>/manifest-summary.json
//	B/P/AWSDynamoDB/<ExportId>/manifest-summary.md5
//
// A full export is the table as of ExportTime (point-in-time recovery's
// history, emulator/internal/pitr; now when absent), which needs point-in-time recovery
// enabled as on AWS. An incremental export writes, for each item changed
// in (ExportFromTime, ExportToTime], a line with its keys and its images
// at the two ends ({"Metadata":{"WriteTimestampMicros":...},"Keys":...,
// "NewImage":...,"OldImage":...}). ExportFormat ION writes the same
// lines in Amazon Ion text (ion/write.go: "$ion_1_0 {Item:{...}}",
// data files <name>.ion.gz), as the same page shows. The files are
// written by the request itself; the export is IN_PROGRESS for the
// transient delay, then COMPLETED (or FAILED when a file could not be
// written).

// exportItemsPerFile is how many items a data file holds at most.
const exportItemsPerFile = 100_000

// exportJob is one export.
type exportJob struct {
	desc    ExportDescription // as at the end of IN_PROGRESS
	doneAt  time.Time         // IN_PROGRESS until then
	request string            // the request's parameters, for ClientToken reuse
}

// IncrementalExportSpecification is AWS's IncrementalExportSpecification.
type IncrementalExportSpecification struct {
	ExportFromTime *float64 `json:"ExportFromTime,omitempty"`
	ExportToTime   *float64 `json:"ExportToTime,omitempty"`
	ExportViewType *string  `json:"ExportViewType,omitempty"`
}

// ExportTableToPointInTimeInput is the request.
type ExportTableToPointInTimeInput struct {
	TableArn                       *string                         `json:"TableArn"`
	ExportTime                     *float64                        `json:"ExportTime"`
	ClientToken                    *string                         `json:"ClientToken"`
	S3Bucket                       *string                         `json:"S3Bucket"`
	S3BucketOwner                  *string                         `json:"S3BucketOwner"`
	S3Prefix                       *string                         `json:"S3Prefix"`
	S3SseAlgorithm                 *string                         `json:"S3SseAlgorithm"`
	S3SseKmsKeyId                  *string                         `json:"S3SseKmsKeyId"`
	ExportFormat                   *string                         `json:"ExportFormat"`
	ExportType                     *string                         `json:"ExportType"`
	IncrementalExportSpecification *IncrementalExportSpecification `json:"IncrementalExportSpecification"`
	FilterSpecification            *FilterSpecification            `json:"FilterSpecification"`
}

// ExportDescription is AWS's ExportDescription.
type ExportDescription struct {
	ExportArn       string             `json:"ExportArn"`
	ExportStatus    string             `json:"ExportStatus"`
	StartTime       service.EpochTime  `json:"StartTime"`
	EndTime         *service.EpochTime `json:"EndTime,omitempty"`
	ExportManifest  string             `json:"ExportManifest,omitempty"`
	TableArn        string             `json:"TableArn"`
	TableId         string             `json:"TableId"`
	ExportTime      service.EpochTime  `json:"ExportTime"`
	ClientToken     string             `json:"ClientToken,omitempty"`
	S3Bucket        string             `json:"S3Bucket"`
	S3BucketOwner   string             `json:"S3BucketOwner,omitempty"`
	S3Prefix        string             `json:"S3Prefix,omitempty"`
	S3SseAlgorithm  string             `json:"S3SseAlgorithm"`
	S3SseKmsKeyId   string             `json:"S3SseKmsKeyId,omitempty"`
	FailureCode     string             `json:"FailureCode,omitempty"`
	FailureMessage  string             `json:"FailureMessage,omitempty"`
	ExportFormat    string             `json:"ExportFormat"`
	BilledSizeBytes *int64             `json:"BilledSizeBytes,omitempty"`
	ItemCount       *int64             `json:"ItemCount,omitempty"`
	// ExportType is the request's, absent when the request gave none: AWS
	// does not fill in its default here (ack-api-quirks DDB-EXPORT-017:
	// a minimal request's DescribeExport has ExportType null). kindOf
	// gives the kind the export is.
	ExportType                     string                          `json:"ExportType,omitempty"`
	IncrementalExportSpecification *IncrementalExportSpecification `json:"IncrementalExportSpecification,omitempty"`
	FilterSpecification            *FilterSpecification            `json:"FilterSpecification,omitempty"`
}

// kindOf is the export's kind, FULL_EXPORT or INCREMENTAL_EXPORT, whether
// or not the request named it. ListExports' summaries carry it for every
// export, also one whose request gave no ExportType (ack-api-quirks
// DDB-EXPORT-016: the summary of such an export has ExportArn,
// ExportStatus and ExportType).
func (d *ExportDescription) kindOf() string {
	if d.IncrementalExportSpecification != nil {
		return "INCREMENTAL_EXPORT"
	}
	return "FULL_EXPORT"
}

// ExportTableToPointInTimeOutput is the response.
type ExportTableToPointInTimeOutput struct {
	ExportDescription ExportDescription `json:"ExportDescription"`
}

// DescribeExportInput is the DescribeExport request.
type DescribeExportInput struct {
	ExportArn *string `json:"ExportArn"`
}

// DescribeExportOutput is the DescribeExport response.
type DescribeExportOutput struct {
	ExportDescription ExportDescription `json:"ExportDescription"`
}

// ListExportsInput is the ListExports request.
type ListExportsInput struct {
	TableArn   *string `json:"TableArn"`
	MaxResults *int64  `json:"MaxResults"`
	NextToken  *string `json:"NextToken"`
}

// ExportSummary is one export listed.
type ExportSummary struct {
	ExportArn    string `json:"ExportArn"`
	ExportStatus string `json:"ExportStatus"`
	ExportType   string `json:"ExportType"`
}

// ListExportsOutput is the ListExports response.
type ListExportsOutput struct {
	ExportSummaries []ExportSummary `json:"ExportSummaries"`
	NextToken       string          `json:"NextToken,omitempty"`
}

// at is the export's description at now.
func (j *exportJob) at(now time.Time) ExportDescription {
	d := j.desc
	if d.ExportStatus != "IN_PROGRESS" && now.Before(j.doneAt) {
		// AWS accepts an export to a missing bucket too, FAILED later.
		d.ExportStatus, d.EndTime, d.ItemCount, d.BilledSizeBytes, d.ExportManifest = "IN_PROGRESS", nil, nil, nil, ""
		d.FailureCode, d.FailureMessage = "", ""
	}
	return d
}

// exportTable runs ExportTableToPointInTime: the request's checks, the
// table and its history, then the full or incremental export written
// at once (the description says IN_PROGRESS until the transient delay
// ends).
func exportTable(c service.Call, in *ExportTableToPointInTimeInput) (*ExportTableToPointInTimeOutput, error) {
	bucketDir, err := checkExportMembers(c, in)
	if err != nil {
		return nil, err
	}
	format := cmpOr(str(in.ExportFormat), "DYNAMODB_JSON")
	kind := cmpOr(str(in.ExportType), "FULL_EXPORT")
	if err := exportRequestChecks(in, kind); err != nil {
		return nil, err
	}
	t, err := c.BackupSourceTable(in.TableArn, "tableArn")
	if errors.Is(err, apierr.ErrTableNotFound) {
		// AWS quotes the ARN asked for (ack-api-quirks DDB-EXPORT-001).
		return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgTableNotFoundBackup(*in.TableArn))
	}
	if err != nil {
		return nil, err
	}
	filter, err := compileExportFilter(in.FilterSpecification, t.Schema()) // export_filter.go
	if err != nil {
		return nil, err
	}
	defer filter.release()
	req, _ := json.Marshal(in)
	if d, found, err := exportKind.reused(c, in.ClientToken, req, apierr.New(apierr.ErrExportConflict, apierr.MsgExportConflict)); found {
		if err != nil {
			return nil, err
		}
		return &ExportTableToPointInTimeOutput{ExportDescription: d}, nil
	}
	l, recovering := pitr.HistoryOf(t)
	if !recovering && kind == "INCREMENTAL_EXPORT" {
		// AWS answers an incremental export of a table without point-in-
		// time recovery with its window check (ack-api-quirks DDB-EXPORT-001).
		return nil, apierr.New(apierr.ErrInvalidExportTime, apierr.MsgExportFromTimeEarly(t.Info().Created))
	}
	if !recovering {
		return nil, apierr.New(apierr.ErrPointInTimeRecoveryUnavailable, apierr.MsgPointInTimeRecoveryUnavailable(t.Info().Name))
	}
	earliest, latest := l.Window(c.Clock())
	earliest = earliest.Truncate(time.Millisecond)

	id, ti := transferID(c.Now()), t.Info()
	prefix := str(in.S3Prefix)
	root := joinKey(prefix, "AWSDynamoDB", id)
	j := &exportJob{request: string(req), doneAt: c.TransientUntil(), desc: ExportDescription{
		ExportArn: ti.ARN + "/export/" + id, ExportStatus: "COMPLETED", StartTime: service.EpochTime(c.Now()),
		TableArn: ti.ARN, TableId: ti.ID, ClientToken: str(in.ClientToken),
		S3Bucket: *in.S3Bucket, S3BucketOwner: str(in.S3BucketOwner), S3Prefix: prefix,
		S3SseAlgorithm: cmpOr(str(in.S3SseAlgorithm), "AES256"), S3SseKmsKeyId: str(in.S3SseKmsKeyId),
		ExportFormat: format, ExportType: str(in.ExportType), FilterSpecification: in.FilterSpecification,
	}}
	w := &exportWriter{dir: filepath.Join(bucketDir, filepath.FromSlash(root)), root: root, bucket: *in.S3Bucket, bucketDir: bucketDir, ion: format == "ION", filter: filter}
	if kind == "FULL_EXPORT" {
		err = j.exportFull(w, l, in.ExportTime, earliest, latest, c.Now())
	} else {
		err = j.exportIncremental(w, l, t.Info().KeyNames(), in.IncrementalExportSpecification, earliest, latest, c.Now())
	}
	if err != nil {
		return nil, err
	}
	if j.desc.ExportStatus == "COMPLETED" {
		err := w.manifests(j, t.Info().ARN)
		j.finish(w, err, c.Now())
	}
	saveTransfer(c.Space(), "export", j.desc.ExportArn, j.desc, j.doneAt, j.request, false) // transfers_persist.go
	set := moves.Of(c)
	set.mu.Lock()
	set.exports = append(set.exports, j)
	set.mu.Unlock()
	return &ExportTableToPointInTimeOutput{ExportDescription: j.at(c.Now())}, nil
}

// checkExportMembers checks the request's members as AWS's model
// constrains them, all at once, then its S3Prefix, and returns the
// directory standing for its bucket.
func checkExportMembers(c service.Call, in *ExportTableToPointInTimeInput) (bucketDir string, err error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, in.TableArn, "tableArn") && (len(*in.TableArn) < 1 || len(*in.TableArn) > 1024) {
		cs.Add(apierr.Quote(*in.TableArn), "tableArn", apierr.LenLE(1024))
	}
	if apierr.NotNull(&cs, in.S3Bucket, "s3Bucket") {
		bucketDir = s3Bucket(c, &cs, *in.S3Bucket, "s3Bucket")
	}
	prefixOK := in.S3Prefix == nil || s3Key(&cs, *in.S3Prefix, "s3Prefix")
	apierr.Enum(&cs, in.S3SseAlgorithm, "s3SseAlgorithm", "AES256", "KMS")
	apierr.Enum(&cs, in.ExportFormat, "exportFormat", "DYNAMODB_JSON", "ION")
	apierr.Enum(&cs, in.ExportType, "exportType", "FULL_EXPORT", "INCREMENTAL_EXPORT")
	if s := in.IncrementalExportSpecification; s != nil {
		apierr.Enum(&cs, s.ExportViewType, "incrementalExportSpecification.exportViewType", "NEW_IMAGE", "NEW_AND_OLD_IMAGES")
	}
	if in.ClientToken != nil && len(*in.ClientToken) > 64 {
		cs.Add(apierr.Quote(*in.ClientToken), "clientToken", apierr.LenLE(64))
	}
	transferTokenPattern(&cs, in.ClientToken)
	if err := cs.Err(); err != nil {
		return "", err
	}
	if !prefixOK {
		return "", apierr.Validation(apierr.MsgS3PathInvalid("S3Prefix", *in.S3Prefix))
	}
	return bucketDir, nil
}

// exportFull writes the table as of exportTime (nil: the latest
// restorable time), which must be in the history's window.
func (j *exportJob) exportFull(w *exportWriter, l pitr.History, exportTime *float64, earliest, latest, now time.Time) error {
	at := latest
	if exportTime != nil {
		at = tablespec.EpochSeconds(*exportTime)
		if at.Before(earliest) || at.After(latest) {
			return apierr.New(apierr.ErrInvalidExportTime, apierr.MsgExportTimeInvalid)
		}
	}
	j.desc.ExportTime = service.EpochTime(at)
	snap, err := l.At(at)
	if err != nil {
		return err
	}
	j.finish(w, w.full(snap), now)
	return nil
}

// exportIncremental writes the changes to the items in (from, to] that
// s asks for, to defaulting to the latest restorable time.
func (j *exportJob) exportIncremental(w *exportWriter, l pitr.History, keys []string, s *IncrementalExportSpecification, earliest, latest, now time.Time) error {
	from, to := tablespec.EpochSeconds(*s.ExportFromTime), latest
	if s.ExportToTime != nil {
		to = tablespec.EpochSeconds(*s.ExportToTime)
	}
	if err := incrementalWindowCheck(from, to, earliest, latest); err != nil {
		return err
	}
	toSec := float64(to.UnixMilli()) / 1000
	view := cmpOr(str(s.ExportViewType), "NEW_AND_OLD_IMAGES")
	j.desc.ExportTime = service.EpochTime(to)
	j.desc.IncrementalExportSpecification = &IncrementalExportSpecification{ExportFromTime: s.ExportFromTime, ExportToTime: &toSec, ExportViewType: &view}
	j.finish(w, w.incremental(l, keys, from, to, view == "NEW_AND_OLD_IMAGES"), now)
	return nil
}

// exportRequestChecks makes the checks of a request AWS answers before
// it looks the table up, in AWS's words (apierr's messages_exports.go
// names the records).
func exportRequestChecks(in *ExportTableToPointInTimeInput, kind string) error {
	spec := in.IncrementalExportSpecification
	switch {
	case !strings.HasPrefix(*in.TableArn, "arn:"):
		return apierr.Validation(apierr.MsgExportTableARNInvalid)
	case in.S3SseKmsKeyId != nil && str(in.S3SseAlgorithm) != "KMS":
		return apierr.Validation(apierr.MsgExportKMSKeyWithoutKMS)
	case kind == "INCREMENTAL_EXPORT" && spec == nil:
		return apierr.Validation(apierr.MsgExportIncrementalSpecMissing)
	case spec != nil && in.ExportType == nil:
		return apierr.Validation(apierr.MsgExportIncrementalTypeMissing)
	case spec != nil && kind == "FULL_EXPORT":
		return apierr.Validation(apierr.MsgExportFullWithIncremental)
	case spec != nil && spec.ExportFromTime == nil:
		return apierr.Validation(apierr.MsgExportFromTimeMissing)
	}
	return nil
}

// incrementalWindowCheck checks an incremental export's window (from,
// to] against the table's history [earliest, latest], in AWS's order: a
// start before the history (or not before the end) first, then an end in
// the future, then the window's length (15 minutes to 24 hours); every
// refusal is InvalidExportTimeException.
func incrementalWindowCheck(from, to, earliest, latest time.Time) error {
	var msg string
	switch d := to.Sub(from); {
	case from.Before(earliest) || !from.Before(to):
		msg = apierr.MsgExportFromTimeEarly(earliest)
	case to.After(latest):
		msg = apierr.MsgExportToTimeLate(latest)
	case d < 15*time.Minute:
		msg = apierr.MsgExportPeriodTooShort
	case d > 24*time.Hour:
		msg = apierr.MsgExportPeriodTooLong
	default:
		return nil
	}
	return apierr.New(apierr.ErrInvalidExportTime, msg)
}

// finish records the outcome of a step of the export: a bucket that
// does not exist makes it FAILED with S3NoSuchBucket and S3's message,
// as on AWS (ack-api-quirks DDB-EXPORT-010), another write error FAILED
// with S3WriteFailed.
func (j *exportJob) finish(w *exportWriter, err error, now time.Time) {
	if j.desc.ExportStatus != "COMPLETED" {
		return
	}
	switch {
	case errors.Is(err, errNoSuchBucket):
		j.desc.ExportStatus, j.desc.FailureCode, j.desc.FailureMessage = "FAILED", "S3NoSuchBucket", apierr.MsgS3NoSuchBucket(j.desc.ExportArn)
	case err != nil:
		j.desc.ExportStatus, j.desc.FailureCode, j.desc.FailureMessage = "FAILED", "S3WriteFailed", err.Error()
	}
	if err != nil {
		j.desc.EndTime = tablespec.EpochPtr(now)
		return
	}
	n, size := w.items, w.bytes
	j.desc.ItemCount, j.desc.BilledSizeBytes = &n, &size
	j.desc.EndTime = tablespec.EpochPtr(now)
	j.desc.ExportManifest = joinKey(w.root, "manifest-summary.json")
}

// exportWriter writes an export's files under dir (the S3 key root).
type exportWriter struct {
	dir, root, bucket string
	bucketDir         string        // the directory standing for the bucket
	ion               bool          // ION lines (ion/write.go), else DynamoDB JSON
	filter            *exportFilter // nil: every item, whole
	files             []exportFile
	items, bytes      int64
	cur               *bytes.Buffer
	curItems          int64
}

// exportFile is a line of manifest-files.json.
type exportFile struct {
	ItemCount     int64  `json:"itemCount"`
	MD5Checksum   string `json:"md5Checksum"`
	ETag          string `json:"etag"`
	DataFileS3Key string `json:"dataFileS3Key"`
}

// line adds one line to the current data file, starting a new file
// every exportItemsPerFile lines.
func (w *exportWriter) line(b []byte, size int) error {
	if w.cur == nil {
		w.cur = new(bytes.Buffer)
	}
	w.cur.Write(b)
	w.cur.WriteByte('\n')
	w.curItems++
	w.items++
	w.bytes += int64(size)
	if w.curItems >= exportItemsPerFile {
		return w.flush()
	}
	return nil
}

// flush writes the current data file, gzipped.
func (w *exportWriter) flush() error {
	if w.cur == nil || w.curItems == 0 {
		return nil
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(w.cur.Bytes())
	if err := zw.Close(); err != nil {
		return err
	}
	name := randomName() + ".json.gz"
	if w.ion {
		name = randomName() + ".ion.gz"
	}
	key := joinKey(w.root, "data", name)
	if err := writeFile(filepath.Join(w.dir, "data", name), gz.Bytes()); err != nil {
		return err
	}
	sum := md5.Sum(gz.Bytes())
	w.files = append(w.files, exportFile{ItemCount: w.curItems, MD5Checksum: base64.StdEncoding.EncodeToString(sum[:]),
		ETag: hex.EncodeToString(sum[:]), DataFileS3Key: key})
	w.cur.Reset()
	w.curItems = 0
	return nil
}

// full writes every item of snap.
func (w *exportWriter) full(snap *storage.TableSnapshot) error {
	if err := w.start(); err != nil {
		return err
	}
	var err error
	var b []byte
	snap.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
		if w.filter != nil {
			b, err = w.filteredLine(b[:0], e)
			return err == nil
		}
		if w.ion {
			b = append(b[:0], ion.VersionMarker+" {Item:"...)
			b = ion.AppendStoredItem(b, e)
		} else {
			b = append(b[:0], `{"Item":`...)
			b = wire.AppendStoredItem(b, e)
		}
		b = append(b, '}')
		err = w.line(b, e.Size())
		return err == nil
	})
	if err != nil {
		return err
	}
	return w.flush()
}

// filteredLine writes e's line when the filter keeps it, its attributes
// projected, reusing b; the billed size is the item's whole size, which
// the export read.
func (w *exportWriter) filteredLine(b []byte, e storage.EncodedItem) ([]byte, error) {
	it := e.Item()
	if !w.filter.keeps(it) {
		return b, nil
	}
	it = w.filter.project(it)
	if w.ion {
		b = append(b, ion.VersionMarker+" {Item:"...)
		b = ion.AppendItem(b, it)
	} else {
		b = append(b, `{"Item":`...)
		b = wire.AppendItem(b, it)
	}
	b = append(b, '}')
	return b, w.line(b, e.Size())
}

// incremental writes the items changed in (from, to]: their keys and
// images at to (NewImage; absent when deleted) and, with old, at from
// (OldImage; absent when created).
func (w *exportWriter) incremental(l pitr.History, names []string, from, to time.Time, old bool) error {
	if err := w.start(); err != nil {
		return err
	}
	changed, last := l.Changed(from, to)
	before, err := l.At(from)
	if err != nil {
		return err
	}
	after, err := l.At(to)
	if err != nil {
		return err
	}
	var b []byte
	for _, k := range changed {
		ne, hasNew := after.GetEncoded(k)
		oe, hasOld := before.GetEncoded(k)
		if !hasNew && !hasOld {
			continue // created and deleted inside the window
		}
		keyOf := ne
		if !hasNew {
			keyOf = oe
		}
		if w.filter != nil && !w.filter.keeps(keyOf.Item()) {
			continue // the latest image, or a deleted item's old one, fails the filter
		}
		b = w.change(b[:0], last[k].UnixMicro(), keyOf.Attributes(names), ne, hasNew, oe, old && hasOld)
		size := 0
		if hasNew {
			size = ne.Size()
		}
		if err := w.line(b, size); err != nil {
			return err
		}
	}
	return w.flush()
}

// change appends an incremental export's line: the write's time, the
// item's keys, and its images.
func (w *exportWriter) change(b []byte, micros int64, keys map[string]storage.Value, ne storage.EncodedItem, hasNew bool, oe storage.EncodedItem, hasOld bool) []byte {
	if w.ion {
		b = append(b, ion.VersionMarker+" {Metadata:{WriteTimestampMicros:"...)
		b = fmt.Appendf(b, "%d.", micros)
		b = append(b, "},Keys:"...)
		b = ion.AppendItem(b, keys)
		if hasNew {
			b = append(b, ",NewImage:"...)
			b = w.appendImage(b, ne)
		}
		if hasOld {
			b = append(b, ",OldImage:"...)
			b = w.appendImage(b, oe)
		}
		return append(b, '}')
	}
	b = append(b, `{"Metadata":{"WriteTimestampMicros":{"N":"`...)
	b = fmt.Appendf(b, "%d", micros)
	b = append(b, `"}},"Keys":`...)
	b = wire.AppendItem(b, keys)
	if hasNew {
		b = append(b, `,"NewImage":`...)
		b = w.appendImage(b, ne)
	}
	if hasOld {
		b = append(b, `,"OldImage":`...)
		b = w.appendImage(b, oe)
	}
	return append(b, '}')
}

// appendImage appends an incremental export's image of an item, its
// attributes projected by the filter's ProjectionExpression.
func (w *exportWriter) appendImage(b []byte, e storage.EncodedItem) []byte {
	switch {
	case w.filter != nil && w.filter.proj != nil && w.ion:
		return ion.AppendItem(b, w.filter.project(e.Item()))
	case w.filter != nil && w.filter.proj != nil:
		return wire.AppendItem(b, w.filter.project(e.Item()))
	case w.ion:
		return ion.AppendStoredItem(b, e)
	}
	return wire.AppendStoredItem(b, e)
}

// manifests writes manifest-files.json and manifest-summary.json with
// their .md5 files.
func (w *exportWriter) manifests(j *exportJob, tableArn string) error {
	var files bytes.Buffer
	for _, f := range w.files {
		b, _ := json.Marshal(f)
		files.Write(b)
		files.WriteByte('\n')
	}
	filesKey := joinKey(w.root, "manifest-files.json")
	if err := writeWithMD5(w.dir, "manifest-files", files.Bytes()); err != nil {
		return err
	}
	d := j.desc
	iso := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
	summary := map[string]any{
		"version": "2020-06-30", "exportArn": d.ExportArn,
		"startTime": iso(d.StartTime.Time()), "endTime": iso(d.StartTime.Time()),
		"tableArn": tableArn, "tableId": d.TableId, "exportTime": iso(d.ExportTime.Time()),
		"s3Bucket": w.bucket, "s3Prefix": nilIfEmpty(d.S3Prefix), "s3SseAlgorithm": d.S3SseAlgorithm,
		"s3SseKmsKeyId": nilIfEmpty(d.S3SseKmsKeyId), "manifestFilesS3Key": filesKey,
		"billedSizeBytes": w.bytes, "itemCount": w.items, "outputFormat": d.ExportFormat,
		"exportType": d.kindOf(),
	}
	if s := d.IncrementalExportSpecification; s != nil {
		summary["outputView"] = str(s.ExportViewType)
		summary["exportFromTime"] = iso(tablespec.EpochSeconds(*s.ExportFromTime))
		summary["exportToTime"] = iso(tablespec.EpochSeconds(*s.ExportToTime))
	}
	b, _ := json.Marshal(summary)
	return writeWithMD5(w.dir, "manifest-summary", b)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// writeWithMD5 writes dir/name.json and dir/name.md5 (its MD5 in base64).
func writeWithMD5(dir, name string, b []byte) error {
	if err := writeFile(filepath.Join(dir, name+".json"), b); err != nil {
		return err
	}
	sum := md5.Sum(b)
	return writeFile(filepath.Join(dir, name+".md5"), []byte(base64.StdEncoding.EncodeToString(sum[:])))
}

// errNoSuchBucket: the export's bucket has no directory under the
// directory standing for S3 (s3dir.go: buckets exist once made).
var errNoSuchBucket = errors.New("no such bucket")

// start writes the export's _started marker, in a bucket that exists.
func (w *exportWriter) start() error {
	if fi, err := os.Stat(w.bucketDir); err != nil || !fi.IsDir() {
		return errNoSuchBucket
	}
	return writeFile(filepath.Join(w.dir, "_started"), nil)
}

// writeFile writes b to path, making its directories.
func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// exportKind is the exports of a transferSet (transfers_list.go).
var exportKind = transferKind[*exportJob, ExportDescription]{
	jobs: func(s *transferSet) []*exportJob { return s.exports },
	arn:  func(j *exportJob) string { return j.desc.ExportArn },
	at:   (*exportJob).at,
	token: func(j *exportJob) (string, time.Time, string) {
		return j.desc.ClientToken, j.desc.StartTime.Time(), j.request
	},
	gone:     func(arn string) error { return apierr.New(apierr.ErrExportNotFound, apierr.MsgExportNotFound(arn)) },
	shape:    transferARNShape("export"),
	invalid:  apierr.MsgExportARNInvalid,
	badToken: func(tok string) error { return apierr.Validation(apierr.MsgTransferNextTokenInvalid(tok)) },
}

func describeExport(c service.Call, in *DescribeExportInput) (*DescribeExportOutput, error) {
	d, err := exportKind.describe(c, in.ExportArn, "exportArn")
	if err != nil {
		return nil, err
	}
	return &DescribeExportOutput{ExportDescription: d}, nil
}

func listExports(c service.Call, in *ListExportsInput) (*ListExportsOutput, error) {
	// With TableArn, AWS lists the exports of the table that has that
	// ARN now: none once it is deleted, none of an earlier table of the
	// same name (ack-api-quirks DDB-EXPORT-020).
	tableID := ""
	if in.TableArn != nil {
		if name, ok := c.TableNameFromARN(*in.TableArn); ok {
			if t, ok := c.Table(name); ok {
				tableID = t.Info().ID
			}
		}
	}
	list, next, err := exportKind.list(c, listPage{size: in.MaxResults, member: "maxResults", def: 25, token: in.NextToken},
		func(j *exportJob) bool { return in.TableArn == nil || tableID != "" && j.desc.TableId == tableID })
	if err != nil {
		return nil, err
	}
	out := &ListExportsOutput{ExportSummaries: make([]ExportSummary, len(list)), NextToken: next}
	for i, d := range list {
		out.ExportSummaries[i] = ExportSummary{ExportArn: d.ExportArn, ExportStatus: d.ExportStatus, ExportType: d.kindOf()}
	}
	return out, nil
}

// encodePageToken makes a NextToken of an ARN: hex, padded with zero
// bytes to a multiple of 8 bytes (ListImports' model wants
// ([0-9a-f]{16})+).
func encodePageToken(arn string) string {
	if arn == "" {
		return ""
	}
	b := []byte(arn)
	for len(b)%8 != 0 || len(b) < 56 {
		b = append(b, 0)
	}
	return hex.EncodeToString(b)
}

// decodePageToken reverses encodePageToken ("" for a bad token, which
// then matches nothing).
func decodePageToken(tok string) string {
	if tok == "" {
		return ""
	}
	b, err := hex.DecodeString(tok)
	if err != nil {
		return "\x00bad"
	}
	return strings.TrimRight(string(b), "\x00")
}

// randomName returns a data file's name: 26 random characters of
// [a-z2-7], as AWS's data file names look.
func randomName() string {
	var b [26]byte
	_, _ = rand.Read(b[:])
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	for i := range b {
		b[i] = alphabet[b[i]%32]
	}
	return string(b[:])
}
