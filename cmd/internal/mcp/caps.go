package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// Result caps: an agent's context is small and a Scan is not. A read's
// Limit is lowered to Options.MaxItems (DynamoDB then pages as it does:
// LastEvaluatedKey, NextToken); items past Options.MaxBytes are left out
// of the answer, which then pages on from the last item kept. Every cut
// is said in the answer's "_dynamoemu" member, so the agent knows the
// result is partial and how to go on.

// notesMember is the member of an answer that carries the server's notes.
const notesMember = "_dynamoemu"

// withNotes adds notes to the JSON object ans.
func withNotes(ans json.RawMessage, notes ...string) json.RawMessage {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return ans
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(ans, &m); err != nil {
		return ans
	}
	b, _ := json.Marshal(map[string][]string{"notes": kept})
	m[notesMember] = b
	out, err := json.Marshal(m)
	if err != nil {
		return ans
	}
	return out
}

// lowerLimit sets the request's Limit to at most MaxItems. It returns the
// request and a note when it lowered or set the limit.
func (s *Server) lowerLimit(args json.RawMessage) (json.RawMessage, string, error) {
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, "", inputErrorf("bad arguments: %v", err)
	}
	max := s.opts.MaxItems
	if raw, ok := m["Limit"]; ok {
		n, err := strconv.Atoi(string(raw))
		if err != nil || n <= max {
			return args, "", nil // DynamoDB says what is wrong with a bad Limit
		}
	}
	m["Limit"] = json.RawMessage(strconv.Itoa(max))
	out, err := json.Marshal(m)
	return out, fmt.Sprintf("Limit set to the server's cap of %d items: when LastEvaluatedKey (or NextToken) is present, call again with it as ExclusiveStartKey (NextToken) for more", max), err
}

// budget is how many bytes of items an answer of base bytes besides its
// items may hold.
func (s *Server) budget(base int) int { return s.opts.MaxBytes - base - 512 }

// fitted is an answer fitted to the caps item by item: the tool's
// result as it is, never cut (an item is whole or left out, and an item
// over the cap by itself comes whole, with a note).
type fitted json.RawMessage

// fitList returns how many of items, from the first, fit in budget bytes.
func fitList(items []json.RawMessage, budget int) int {
	n := 0
	for i, it := range items {
		n += len(it) + 1
		if n > budget {
			return i
		}
	}
	return len(items)
}

// fitAtLeastOne is fitList keeping at least the first item: an item over
// the cap by itself is returned whole (cutting it would leave JSON no
// one can read; leaving it out, a page no one can pass). The note says so.
func (s *Server) fitAtLeastOne(items []json.RawMessage, budget int) (int, string) {
	keep := fitList(items, budget)
	if keep > 0 || len(items) == 0 {
		return keep, ""
	}
	return 1, s.oversizeNote(len(items[0]))
}

// oversizeNote says an item over the byte cap came whole.
func (s *Server) oversizeNote(n int) string {
	return fmt.Sprintf("an item of %d bytes, over the server's cap of %d, is returned whole, alone: a ProjectionExpression reads less of it", n, s.opts.MaxBytes)
}

// fitPage fits a Query's or Scan's answer to MaxBytes: items past it are
// left out, Count says how many are kept and LastEvaluatedKey is the
// last kept item's key (the table's and the index's key attributes), so
// that the next page starts after it.
func (s *Server) fitPage(ctx context.Context, table, index string, ans json.RawMessage) (json.RawMessage, string, error) {
	if len(ans) <= s.opts.MaxBytes {
		return ans, "", nil
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(ans, &m); err != nil {
		return nil, "", err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(m["Items"], &items); err != nil || len(items) == 0 {
		return ans, "", nil
	}
	keep, whole := s.fitAtLeastOne(items, s.budget(len(ans)-len(m["Items"])))
	if keep == len(items) {
		return ans, whole, nil
	}
	attrs, err := s.keyAttrs(ctx, table, index)
	if err != nil {
		return nil, "", err
	}
	var last map[string]json.RawMessage
	if err := json.Unmarshal(items[keep-1], &last); err != nil {
		return nil, "", err
	}
	lek := map[string]json.RawMessage{}
	for _, a := range attrs {
		v, ok := last[a]
		if !ok {
			return nil, "", fmt.Errorf("the answer is over the server's cap of %d bytes and its items lack the key attribute %q to page on from: ask for fewer items with Limit", s.opts.MaxBytes, a)
		}
		lek[a] = v
	}
	m["Items"], _ = json.Marshal(items[:keep])
	m["Count"] = json.RawMessage(strconv.Itoa(keep))
	m["LastEvaluatedKey"], _ = json.Marshal(lek)
	out, err := json.Marshal(m)
	note := fmt.Sprintf("%d of %d items kept under the server's cap of %d bytes: Count is the items kept and LastEvaluatedKey the last one's key; pass it as ExclusiveStartKey for the rest", keep, len(items), s.opts.MaxBytes)
	if whole != "" {
		note = whole + "; " + note
	}
	return out, note, err
}

// fitBatchGet fits a BatchGetItem answer to MaxItems and MaxBytes: the
// items left out go back in UnprocessedKeys, as DynamoDB returns keys it
// did not read, under the key attribute names the request used.
func (s *Server) fitBatchGet(req, ans json.RawMessage) (json.RawMessage, string, error) {
	budget := -1
	for {
		out, note, kept, used, err := s.fitBatchGetIn(req, ans, budget)
		over := len(out) + len(note) + 64 - s.opts.MaxBytes // the keys given back count too
		if err != nil || over <= 0 || kept <= 1 {
			return out, note, err
		}
		budget = max(used-over, 0)
	}
}

// fitBatchGetIn is fitBatchGet keeping items of at most budget bytes (<
// 0: the cap less the rest of the answer). It returns how many items it
// kept.
func (s *Server) fitBatchGetIn(req, ans json.RawMessage, budget int) (json.RawMessage, string, int, int, error) {
	var in struct {
		RequestItems map[string]struct{ Keys []map[string]json.RawMessage }
	}
	if err := json.Unmarshal(req, &in); err != nil {
		return ans, "", 0, 0, nil
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(ans, &m); err != nil {
		return nil, "", 0, 0, err
	}
	var resp map[string][]json.RawMessage
	if err := json.Unmarshal(m["Responses"], &resp); err != nil {
		return ans, "", 0, 0, nil
	}
	unprocessed := map[string]map[string]json.RawMessage{}
	if raw := m["UnprocessedKeys"]; raw != nil {
		_ = json.Unmarshal(raw, &unprocessed)
	}
	if budget < 0 {
		budget = s.budget(len(ans) - len(m["Responses"]))
	}
	count, used := 0, budget
	dropped, total, whole := 0, 0, ""
	tables := sortedNames(resp)
	for _, table := range tables {
		items := resp[table]
		total += len(items)
		keep := min(fitList(items, budget), s.opts.MaxItems-count)
		if keep < 0 {
			keep = 0
		}
		if keep == 0 && count == 0 && len(items) > 0 {
			keep, whole = 1, s.oversizeNote(len(items[0])) // else no call would ever read it
		}
		for _, it := range items[:keep] {
			budget -= len(it) + 1
		}
		count += keep
		if keep == len(items) {
			continue
		}
		var names []string
		if keys := in.RequestItems[table].Keys; len(keys) > 0 {
			names = sortedNames(keys[0])
		}
		var back []map[string]json.RawMessage
		for _, it := range items[keep:] {
			var item map[string]json.RawMessage
			if err := json.Unmarshal(it, &item); err != nil {
				return nil, "", 0, 0, err
			}
			k := map[string]json.RawMessage{}
			for _, n := range names {
				k[n] = item[n]
			}
			back = append(back, k)
		}
		dropped += len(back)
		resp[table] = items[:keep]
		u := unprocessed[table]
		if u == nil {
			u = map[string]json.RawMessage{}
		}
		var keys []map[string]json.RawMessage
		if raw := u["Keys"]; raw != nil {
			_ = json.Unmarshal(raw, &keys)
		}
		u["Keys"], _ = json.Marshal(append(keys, back...))
		unprocessed[table] = u
	}
	if dropped == 0 {
		return ans, whole, count, used, nil
	}
	m["Responses"], _ = json.Marshal(resp)
	m["UnprocessedKeys"], _ = json.Marshal(unprocessed)
	out, err := json.Marshal(m)
	note := fmt.Sprintf("%d of %d items left out under the server's caps (%d items, %d bytes): their keys are in UnprocessedKeys; send them again as RequestItems", dropped, total, s.opts.MaxItems, s.opts.MaxBytes)
	if whole != "" {
		note = whole + "; " + note
	}
	return out, note, count, used, err
}

// fitItemList fits an answer's list member (ExecuteStatement's Items,
// TransactGetItems' Responses, stream Records) to MaxBytes, leaving out
// its tail; the note says how many are left out and how to get them.
func (s *Server) fitItemList(ans json.RawMessage, member, howMore string) (json.RawMessage, string, error) {
	if len(ans) <= s.opts.MaxBytes {
		return ans, "", nil
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(ans, &m); err != nil {
		return nil, "", err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(m[member], &items); err != nil {
		return ans, "", nil
	}
	keep, whole := s.fitAtLeastOne(items, s.budget(len(ans)-len(m[member])))
	if keep == len(items) {
		return ans, whole, nil
	}
	m[member], _ = json.Marshal(items[:keep])
	out, err := json.Marshal(m)
	note := fmt.Sprintf("%d of %d %s left out under the server's cap of %d bytes: %s", len(items)-keep, len(items), member, s.opts.MaxBytes, howMore)
	if whole != "" {
		note = whole + "; " + note
	}
	return out, note, err
}

// keyAttrs names the key attributes of a table and, when index is not
// "", of the index: what LastEvaluatedKey holds.
func (s *Server) keyAttrs(ctx context.Context, table, index string) ([]string, error) {
	d, err := s.describe(ctx, table)
	if err != nil {
		return nil, err
	}
	attrs := d.keyNames(d.KeySchema)
	if index != "" {
		x := d.index(index)
		if x == nil {
			return nil, fmt.Errorf("table %q has no index %q", table, index)
		}
		for _, a := range d.keyNames(x.keys) {
			if !contains(attrs, a) {
				attrs = append(attrs, a)
			}
		}
	}
	return attrs, nil
}
