package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The placeholders a normalised body holds.
const (
	PrefixMark  = "${prefix}"  // the table prefix
	AccountMark = "${account}" // an ARN's account id
	RegionMark  = "${region}"  // an ARN's region
	LabelMark   = "${label}"   // a stream label, backup, export or import id in an ARN
)

// labelled are the ARN resource segments whose next segment is made at
// creation (a time or an id): table/T/stream/LABEL, table/T/backup/ID …
var labelled = []string{"/stream/", "/backup/", "/export/", "/import/"}

// Normalise returns body with prefix (when not empty) written as
// ${prefix} in every string and member name, and every ARN's region,
// account id and creation label as ${region}, ${account}, ${label}. An
// ARN is a string that opens with "arn:"; in one followed by "|" (a
// shard iterator) only the part before it. Normalise leaves a normalised
// body as it is. body must be one JSON value.
func Normalise(body []byte, prefix string) (json.RawMessage, error) {
	v, err := decode(body)
	if err != nil {
		return nil, err
	}
	return encode(normaliseValue(v, prefix))
}

// decode reads one JSON value, numbers as json.Number (their text kept).
func decode(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not JSON: more than one value")
	}
	return v, nil
}

// encode writes v compact, without HTML escapes, members sorted.
func encode(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func normaliseValue(v any, prefix string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[normaliseString(k, prefix)] = normaliseValue(x, prefix)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normaliseValue(x, prefix)
		}
		return out
	case string:
		return normaliseString(v, prefix)
	}
	return v
}

// normaliseString is Normalise of one string.
func normaliseString(s, prefix string) string {
	if strings.HasPrefix(s, "arn:") {
		head, tail, bar := strings.Cut(s, "|")
		s = normaliseARN(head)
		if bar {
			s += "|" + tail
		}
	}
	if prefix != "" {
		s = strings.ReplaceAll(s, prefix, PrefixMark)
	}
	return s
}

// normaliseARN is an ARN (arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE)
// with its region, account and labels as placeholders.
func normaliseARN(s string) string {
	p := strings.SplitN(s, ":", 6)
	if len(p) != 6 {
		return s
	}
	if p[3] != "" {
		p[3] = RegionMark
	}
	if p[4] != "" {
		p[4] = AccountMark
	}
	res := p[5]
	for _, l := range labelled {
		i := strings.Index(res, l)
		if i < 0 {
			continue
		}
		start := i + len(l)
		end := strings.IndexByte(res[start:], '/')
		if end < 0 {
			end = len(res) - start
		}
		if start+end > start {
			res = res[:start] + LabelMark + res[start+end:]
		}
	}
	p[5] = res
	return strings.Join(p, ":")
}

// fill is a normalised string with the placeholders a request may hold
// replaced: prefix, region and account.
func fill(s, prefix, region, account string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return strings.NewReplacer(PrefixMark, prefix, RegionMark, region, AccountMark, account).Replace(s)
}
