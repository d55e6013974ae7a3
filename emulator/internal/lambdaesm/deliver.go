package lambdaesm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// A batch's delivery with Lambda's error handling for streams ("Error
// handling" and "Configuring partial batch response" in Lambda's
// DynamoDB guide): a batch that failed is retried until
// MaximumRetryAttempts retries failed (-1: until the records expire) or
// its oldest record is older than MaximumRecordAgeInSeconds. A failure is
// a function error, or, with ReportBatchItemFailures, an answer that
// reports failed records (the retry starts at the reported record of
// lowest sequence number: a partial failure, which counts as a retry) or
// that the guide makes a complete failure (readItemFailures). With
// BisectBatchOnFunctionError a batch of more than one record that failed
// whole is split in two and each half delivered in turn, which does not
// count as a retry; a partial failure is not split further ("the batch is
// bisected at the returned sequence number and Lambda retries only the
// remaining records"). A batch given up on goes to the on-failure
// destination as its invocation record (its records are not in it), and
// the checkpoint moves past it.

// result is one invocation's outcome.
type result struct {
	ok        bool       // the function returned without an error
	report    itemReport // with ok and ReportBatchItemFailures: what the answer says of the records
	status    int        // the Invoke API's HTTP status (200 for a Go function)
	funcError string     // X-Amz-Function-Error ("Unhandled"), or ""
	body      []byte     // the function's answer
	err       string     // what went wrong, for the status and the drain
}

// done reports whether the invocation handled every record of its batch.
func (r result) done() bool { return r.ok && r.report.kind == reportNone }

// partial reports whether the records before r.report.from were handled
// and the others failed (from may be 0: the first record failed).
func (r result) partial() bool { return r.ok && r.report.kind == reportFrom }

// reportKind is what a StreamsEventResponse says of its batch.
type reportKind uint8

const (
	reportNone  reportKind = iota // no record failed: a complete success
	reportFrom                    // the records from itemReport.from on failed
	reportWhole                   // the answer makes the whole batch a failure
)

// itemReport is a StreamsEventResponse read against its batch.
type itemReport struct {
	kind reportKind
	from int // with reportFrom: the index of the reported record of lowest sequence number
}

// The wait between retries of a failed batch. Lambda's guides say a
// stream's failed batch is retried until it succeeds, its records
// expire or reach MaximumRecordAgeInSeconds, or MaximumRetryAttempts
// retries failed, and that the shard waits meanwhile ("Error handling"
// in Lambda's DynamoDB guide; "Lambda event source mappings"); they
// give no interval. The emulator backs off exponentially: the first
// retry after the backoff (DefaultRetryBackoff, or SetRetryBackoff),
// each next one after twice the wait before, up to maxBackoffFactor
// times the first.
const (
	DefaultRetryBackoff = time.Second
	maxBackoffFactor    = 60
)

// SetRetryBackoff sets the wait before a failed batch's first retry (0:
// DefaultRetryBackoff); tests set a millisecond.
func (m *Manager) SetRetryBackoff(d time.Duration) {
	m.mu.Lock()
	m.backoff = d
	m.mu.Unlock()
}

// retryWait is the wait before retry number retries (1 the first).
func (m *Manager) retryWait(retries int64) time.Duration {
	m.mu.Lock()
	first := m.backoff
	m.mu.Unlock()
	return backoffFor(first, retries)
}

// backoffFor is the wait before retry number retries when the first
// waits first (0: DefaultRetryBackoff).
func backoffFor(first time.Duration, retries int64) time.Duration {
	if first <= 0 {
		first = DefaultRetryBackoff
	}
	d := first << min(max(retries-1, 0), 6)
	return min(d, maxBackoffFactor*first)
}

func (mp *mapping) deliver(s service.Stream, st settings, recs []item) {
	mp.deliverFrom(s, st, recs, 0)
}

// deliverFrom delivers recs, a batch (or a half of one) after retries
// retries.
func (mp *mapping) deliverFrom(s service.Stream, st settings, recs []item, retries int64) {
	var last result
	invokes := 0 // of this batch: its approximateInvokeCount
	for len(recs) > 0 {
		if mp.stopped() {
			return
		}
		if st.maxAge >= 0 {
			now := mp.mgr.svc.Now().Unix()
			n := 0
			for n < len(recs) && now-recs[n].at > st.maxAge {
				n++
			}
			if n > 0 && invokes > 0 {
				n = len(recs) // a batch retried past the age is given up on whole
			}
			if n > 0 {
				mp.discard(s, st, recs[:n], "RecordAgeExceeded", invokes, last)
				recs = recs[n:]
				continue
			}
		}
		last = mp.invoke(s, st, recs)
		invokes++
		switch {
		case last.done():
			return
		case last.partial(): // the records before the reported one are done
			recs = recs[last.report.from:]
		case st.bisect && len(recs) > 1:
			h := len(recs) / 2
			mp.deliverFrom(s, st, recs[:h], retries)
			mp.deliverFrom(s, st, recs[h:], retries)
			return
		}
		retries++
		if st.maxRetries >= 0 && retries > st.maxRetries {
			mp.discard(s, st, recs, "RetryAttemptsExhausted", invokes, last)
			return
		}
		mp.backoff(retries)
	}
}

func (mp *mapping) backoff(retries int64) {
	t := time.NewTimer(mp.mgr.retryWait(retries))
	defer t.Stop()
	select {
	case <-t.C:
	case <-mp.quit:
	}
}

// invoke calls the function once with recs.
func (mp *mapping) invoke(s service.Stream, st settings, recs []item) result {
	res := mp.call(st, mp.event(s, st, recs, false, false))
	if res.ok && st.tumbling > 0 {
		state, ok := windowState(res.body)
		if !ok {
			res.ok, res.err = false, "the function's answer has no state: with a tumbling window it must (TimeWindowEventResponse)"
		} else {
			mp.tw.state = state
		}
	}
	if res.ok && st.reportItems {
		var why string
		res.report, why = readItemFailures(res.body, recs)
		switch res.report.kind {
		case reportWhole:
			res.err = "the function's answer fails the whole batch: " + why
		case reportFrom:
			res.err = "the function reported batch item failures: the retry starts at sequence number " +
				streamlog.FormatSequenceNumber(recs[res.report.from].seq)
		}
	}
	mp.count(recs, res)
	return res
}

// event is the payload Lambda sends for recs: {"Records":[...]}, and with
// a tumbling window the window, its state, the shard and the stream.
func (mp *mapping) event(s service.Stream, st settings, recs []item, final, early bool) []byte {
	size := 64 * len(recs)
	if st.tumbling > 0 {
		size += 256 + len(mp.tw.state)
	}
	payload := make([]byte, 0, size)
	payload = append(payload, `{"Records":[`...)
	for i, r := range recs {
		if i > 0 {
			payload = append(payload, ',')
		}
		payload = append(payload, r.json...)
	}
	payload = append(payload, ']')
	if st.tumbling > 0 {
		const stamp = "2006-01-02T15:04:05Z"
		payload = append(payload, `,"window":{"start":"`...)
		payload = time.Unix(mp.tw.start, 0).UTC().AppendFormat(payload, stamp)
		payload = append(payload, `","end":"`...)
		payload = time.Unix(mp.tw.start+st.tumbling, 0).UTC().AppendFormat(payload, stamp)
		payload = append(payload, `"},"state":`...)
		payload = append(payload, mp.tw.state...)
		payload = append(payload, `,"shardId":`...)
		payload = strconv.AppendQuote(payload, s.ShardID())
		payload = append(payload, `,"eventSourceARN":`...)
		payload = strconv.AppendQuote(payload, s.ARN())
		payload = append(payload, `,"isFinalInvokeForWindow":`...)
		payload = strconv.AppendBool(payload, final)
		payload = append(payload, `,"isWindowTerminatedEarly":`...)
		payload = strconv.AppendBool(payload, early)
	}
	return append(payload, '}')
}

// call invokes the function with payload.
func (mp *mapping) call(st settings, payload []byte) result {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-mp.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	defer cancel()
	fn, endpoint := mp.mgr.target(st.function, st.endpoint)
	var res result
	switch {
	case fn != nil:
		body, err := fn(ctx, payload)
		res = result{ok: err == nil, status: http.StatusOK, body: body}
		if err != nil {
			res.funcError, res.err = "Unhandled", err.Error()
		}
	case endpoint != "":
		res = mp.invokeHTTP(ctx, endpoint, st.fnRef, payload)
	default:
		res = result{err: "no target for function " + st.function + ": set a Lambda endpoint (-lambdaEndpoint) or a Go function"}
	}
	return res
}

// count keeps an invocation's figures for the mapping's status.
func (mp *mapping) count(recs []item, res result) {
	now := mp.mgr.svc.Now().Unix()
	mp.mu.Lock()
	mp.invokes++
	mp.lastBatch = len(recs)
	if len(recs) > 0 {
		mp.iterAge = now - recs[len(recs)-1].at
	}
	if res.done() {
		mp.lastResult = "OK"
	} else {
		mp.funcErrs++
		mp.lastResult = "PROBLEM: Function call failed"
		mp.lastErr = res.err
	}
	mp.mu.Unlock()
}

// maxAnswer bounds a function's answer read (Lambda's 6 MB).
const maxAnswer = payloadLimit

// invokeHTTP invokes fn at endpoint (Lambda's Invoke API), its version
// or alias as the Qualifier.
func (mp *mapping) invokeHTTP(ctx context.Context, endpoint string, fn functionRef, payload []byte) result {
	u := endpoint + "/2015-03-31/functions/" + url.PathEscape(fn.name) + "/invocations"
	if fn.qualifier != "" {
		u += "?Qualifier=" + url.QueryEscape(fn.qualifier)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(payload))
	if err != nil {
		return result{err: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Amz-Invocation-Type", "RequestResponse")
	resp, err := mp.mgr.client.Do(req)
	if err != nil {
		return result{err: err.Error()}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	res := result{status: resp.StatusCode, body: body, funcError: resp.Header.Get("X-Amz-Function-Error")}
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		res.err = "POST " + u + ": HTTP " + strconv.Itoa(resp.StatusCode) + ": " + string(trimBody(body))
	case res.funcError != "":
		res.err = "function error (" + res.funcError + "): " + string(trimBody(body))
	default:
		res.ok = true
	}
	return res
}

func trimBody(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

// readItemFailures reads a function's answer as a StreamsEventResponse
// ({"batchItemFailures":[{"itemIdentifier":"<SequenceNumber>"}]}) against
// its batch, by the rules of "Success and failure conditions" in Lambda's
// guide ("Configuring partial batch response with DynamoDB and Lambda"):
//
//   - "Lambda treats a batch as a complete success if you return any of
//     the following: An empty batchItemFailure list; A null
//     batchItemFailure list; An empty EventResponse; A null
//     EventResponse". An answer that is JSON but no object ([], "", a
//     number) is no report either: AWS takes [] and "" as successes
//     (LocalStack's tests recorded against AWS), and so an object without
//     the member batchItemFailures (names are matched exactly).
//   - "Lambda treats a batch as a complete failure if you return any of
//     the following: An empty string itemIdentifier; A null
//     itemIdentifier; An itemIdentifier with a bad key name". So is an
//     itemIdentifier that is not a string (AWS fails the batch for 123,
//     and for an entry whose only key is "foo"), one that is no record's
//     SequenceNumber in the batch (as the guide says of SQS's message IDs),
//     an entry or a list of another type, and an answer that is not JSON
//     (the guide lists it for SQS, says nothing of it for streams; taken
//     as a failure, so no record is lost).
//   - "If the batchItemFailures array contains multiple items, Lambda uses
//     the record with the lowest sequence number as the checkpoint.
//     Lambda then retries all records starting from that checkpoint."
//
// why says what made the batch a complete failure.
func readItemFailures(body []byte, recs []item) (itemReport, string) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return itemReport{}, "" // an empty EventResponse
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(body, &resp); err != nil {
		if json.Valid(body) {
			return itemReport{}, "" // null, a list, a string, a number: no report
		}
		return itemReport{kind: reportWhole}, "the answer is not JSON"
	}
	list, ok := resp["batchItemFailures"]
	if !ok || string(list) == "null" {
		return itemReport{}, ""
	}
	var entries []json.RawMessage
	if json.Unmarshal(list, &entries) != nil {
		return itemReport{kind: reportWhole}, "batchItemFailures is not a list"
	}
	from := -1
	for _, e := range entries {
		var entry map[string]json.RawMessage
		if json.Unmarshal(e, &entry) != nil || entry == nil {
			return itemReport{kind: reportWhole}, "an entry of batchItemFailures is not an object: " + string(trimBody(e))
		}
		raw, ok := entry["itemIdentifier"]
		if !ok {
			return itemReport{kind: reportWhole}, "an entry of batchItemFailures has no itemIdentifier: " + string(trimBody(e))
		}
		var id string
		if json.Unmarshal(raw, &id) != nil || string(raw) == "null" {
			return itemReport{kind: reportWhole}, "an itemIdentifier is not a string: " + string(trimBody(raw))
		}
		if id == "" {
			return itemReport{kind: reportWhole}, "an itemIdentifier is empty"
		}
		found := indexOfSequence(recs, id)
		if found < 0 {
			return itemReport{kind: reportWhole}, "the itemIdentifier " + strconv.Quote(string(trimBody([]byte(id)))) + " is the SequenceNumber of no record of the batch"
		}
		if from < 0 || found < from {
			from = found
		}
	}
	if from < 0 {
		return itemReport{}, "" // an empty list
	}
	return itemReport{kind: reportFrom, from: from}, ""
}

// indexOfSequence is the index of the record of recs whose SequenceNumber
// (as the event writes it: 21 digits at least) is id, or -1. A batch's
// records are in sequence order.
func indexOfSequence(recs []item, id string) int {
	seq, ok := streamlog.ParseSequenceNumber(id)
	if !ok || streamlog.FormatSequenceNumber(seq) != id {
		return -1
	}
	i, found := slices.BinarySearchFunc(recs, seq, func(r item, seq uint64) int { return cmp.Compare(r.seq, seq) })
	if !found {
		return -1
	}
	return i
}

// discard sends recs' invocation record to the on-failure destination.
func (mp *mapping) discard(s service.Stream, st settings, recs []item, condition string, invokes int, last result) {
	rec := invocationRecord(s, st, recs, condition, invokes, last, mp.mgr.svc.Now())
	mp.mu.Lock()
	mp.discarded += int64(len(recs))
	mp.lastErr = fmt.Sprintf("%d records discarded (%s after %d invocations), sequence numbers %s to %s",
		len(recs), condition, invokes, streamlog.FormatSequenceNumber(recs[0].seq), streamlog.FormatSequenceNumber(recs[len(recs)-1].seq))
	if last.err != "" {
		mp.lastErr += "; the last: " + last.err
	}
	mp.failures = append(mp.failures, rec)
	if len(mp.failures) > maxKeptFailures {
		mp.failures = mp.failures[len(mp.failures)-maxKeptFailures:]
	}
	mp.mu.Unlock()
	mp.mgr.mu.Lock()
	sink := mp.mgr.sink
	mp.mgr.mu.Unlock()
	if sink != nil {
		sink(rec)
	}
	if err := mp.mgr.sendFailure(st.onFailure, rec); err != nil {
		mp.mgr.svc.Log().Warn("event source mapping: on-failure destination", "uuid", mp.uuid, "destination", st.onFailure, "err", err)
	}
}

// invocationRecord is the document Lambda sends an on-failure
// destination for a DynamoDB stream's discarded batch, in the shape of
// the guide's example ("Retaining discarded batches for a DynamoDB event
// source"): its timestamp to the millisecond ("2019-11-14T00:13:49.717Z"),
// the records' approximate arrivals to the second, as their
// ApproximateCreationDateTime is ("2019-11-14T00:13:19Z"), and
// responseContext.functionError "Unhandled" for a function error, null
// for a failure the function reported (as AWS sends it).
func invocationRecord(s service.Stream, st settings, recs []item, condition string, invokes int, last result, now time.Time) []byte {
	type requestContext struct {
		RequestID              string `json:"requestId"`
		FunctionArn            string `json:"functionArn"`
		Condition              string `json:"condition"`
		ApproximateInvokeCount int    `json:"approximateInvokeCount"`
	}
	type responseContext struct {
		StatusCode      int     `json:"statusCode"`
		ExecutedVersion string  `json:"executedVersion"`
		FunctionError   *string `json:"functionError"` // null when the function returned (a failure it reported)
	}
	type batchInfo struct {
		ShardID                         string `json:"shardId"`
		StartSequenceNumber             string `json:"startSequenceNumber"`
		EndSequenceNumber               string `json:"endSequenceNumber"`
		ApproximateArrivalOfFirstRecord string `json:"approximateArrivalOfFirstRecord"`
		ApproximateArrivalOfLastRecord  string `json:"approximateArrivalOfLastRecord"`
		BatchSize                       int    `json:"batchSize"`
		StreamArn                       string `json:"streamArn"`
	}
	region, account := arnParts(s.ARN())
	doc := struct {
		RequestContext     requestContext   `json:"requestContext"`
		ResponseContext    *responseContext `json:"responseContext,omitempty"`
		Version            string           `json:"version"`
		Timestamp          string           `json:"timestamp"`
		DDBStreamBatchInfo batchInfo        `json:"DDBStreamBatchInfo"`
	}{
		RequestContext: requestContext{RequestID: newUUID(), Condition: condition, ApproximateInvokeCount: invokes,
			FunctionArn: st.fnRef.arn(region, account)},
		Version:   "1.0",
		Timestamp: now.UTC().Format("2006-01-02T15:04:05.000Z"),
		DDBStreamBatchInfo: batchInfo{
			ShardID:                         s.ShardID(),
			StartSequenceNumber:             streamlog.FormatSequenceNumber(recs[0].seq),
			EndSequenceNumber:               streamlog.FormatSequenceNumber(recs[len(recs)-1].seq),
			ApproximateArrivalOfFirstRecord: time.Unix(recs[0].at, 0).UTC().Format(time.RFC3339),
			ApproximateArrivalOfLastRecord:  time.Unix(recs[len(recs)-1].at, 0).UTC().Format(time.RFC3339),
			BatchSize:                       len(recs),
			StreamArn:                       s.ARN(),
		},
	}
	if invokes > 0 {
		rc := &responseContext{StatusCode: last.status, ExecutedVersion: "$LATEST"}
		if !last.ok {
			fe := last.funcError
			if fe == "" {
				fe = "Unhandled"
			}
			rc.FunctionError = &fe
		}
		doc.ResponseContext = rc
	}
	b, _ := json.Marshal(doc)
	return b
}

// sendFailure delivers an invocation record to a destination: a
// file:// URL gets it as a line (inside the operator's directory,
// targets.go), an http(s):// URL as a POST; an ARN (an SQS queue, an
// SNS topic) keeps it in memory only.
func (m *Manager) sendFailure(dest string, rec []byte) error {
	t := m.targetsNow()
	switch {
	case dest == "":
		return nil
	case strings.HasPrefix(dest, "file://"):
		return t.appendFile(dest, append(rec, '\n'))
	case strings.HasPrefix(dest, "http://"), strings.HasPrefix(dest, "https://"):
		if err := t.checkURL(dest, "The on-failure destination"); err != nil {
			return err
		}
		resp, err := m.client.Post(dest, "application/json", bytes.NewReader(rec))
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	return nil
}
