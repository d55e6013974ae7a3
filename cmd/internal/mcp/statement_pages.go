package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// ExecuteStatement's pages under the byte cap. DynamoDB's NextToken
// follows the last item it evaluated; when the cap leaves out the tail
// of a page, that token would skip the items left out. So the server
// gives its own token instead: the page's NextToken (the one it was read
// with), its Limit and how many of its items were already returned. The
// next call reads the same page again and returns the items after those:
// each item once, in order, as long as the table does not change between
// the calls (as with any paging). The page read again is counted again
// in the report and its capacity.

// pageTokenPrefix starts the server's own NextToken.
const pageTokenPrefix = "dynamoemu-page:"

// pageToken is what the server's NextToken holds.
type pageToken struct {
	Inner *string `json:"t,omitempty"` // the NextToken the page was read with; nil: the first page
	Limit int     `json:"l"`           // the Limit it was read with
	Skip  int     `json:"s"`           // the page's items already returned
	Stmt  string  `json:"h"`           // a hash of the statement and its parameters
}

func (t pageToken) encode() string {
	b, _ := json.Marshal(t)
	return pageTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

func decodePageToken(tok string) (pageToken, error) {
	var t pageToken
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(tok, pageTokenPrefix))
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil || t.Skip < 0 || t.Limit <= 0 {
		return t, inputErrorf("NextToken %q is not one this server gave", tok)
	}
	return t, nil
}

// statementHash ties a token to its statement and parameters.
func statementHash(m map[string]json.RawMessage) string {
	h := fnv.New64a()
	h.Write(m["Statement"])
	h.Write([]byte{0})
	h.Write(m["Parameters"])
	return strconv.FormatUint(h.Sum64(), 36)
}

// executeStatement is ExecuteStatement with the caps.
func (s *Server) executeStatement(ctx context.Context, args json.RawMessage) (any, error) {
	m := map[string]json.RawMessage{}
	if err := decode(args, &m); err != nil {
		return nil, err
	}
	var tok pageToken
	var next string
	if raw, ok := m["NextToken"]; ok {
		_ = json.Unmarshal(raw, &next)
	}
	ours := strings.HasPrefix(next, pageTokenPrefix)
	if ours {
		var err error
		if tok, err = decodePageToken(next); err != nil {
			return nil, err
		}
		if tok.Stmt != statementHash(m) {
			return nil, inputErrorf("this NextToken belongs to another statement or other parameters: page with the statement it came with")
		}
		delete(m, "NextToken")
		if tok.Inner != nil {
			m["NextToken"], _ = json.Marshal(*tok.Inner)
		}
		m["Limit"] = json.RawMessage(strconv.Itoa(tok.Limit))
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	body, limitNote, err := s.lowerLimit(body)
	if err != nil {
		return nil, err
	}
	ans, err := s.eng.call(ctx, apiDynamoDB, "ExecuteStatement", body)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(ans, &out); err != nil {
		return nil, err
	}
	if out["NextToken"] == nil {
		limitNote = "" // the last page: the cap cut nothing
	}
	var items []json.RawMessage
	if raw, ok := out["Items"]; ok {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, err
		}
	}
	if tok.Skip > len(items) {
		return nil, fmt.Errorf("the page this NextToken continues has %d items now, not the %d already returned: the table changed; start again without NextToken", len(items), tok.Skip)
	}
	items = items[tok.Skip:]
	if !ours && len(ans) <= s.opts.MaxBytes {
		return fitted(withNotes(ans, limitNote)), nil
	}
	base := len(ans) - len(out["Items"]) + len(pageTokenPrefix) + 200 // room for a token of ours
	keep, whole := s.fitAtLeastOne(items, s.budget(base))
	out["Items"], _ = json.Marshal(items[:keep])
	byteNote := whole
	if keep < len(items) {
		var lim struct{ Limit int }
		_ = json.Unmarshal(body, &lim)
		if !ours {
			tok = pageToken{Limit: lim.Limit, Stmt: statementHash(m)}
			if raw, ok := m["NextToken"]; ok {
				var inner string
				_ = json.Unmarshal(raw, &inner)
				tok.Inner = &inner
			}
		}
		tok.Skip += keep
		out["NextToken"], _ = json.Marshal(tok.encode())
		byteNote = strings.TrimPrefix(whole+"; ", "; ") + fmt.Sprintf("%d of %d items kept under the server's cap of %d bytes: pass NextToken for the rest", keep, len(items), s.opts.MaxBytes)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(b, limitNote, byteNote)), nil
}
