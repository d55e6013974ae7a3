package expr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

func TestKeyConditionResult(t *testing.T) {
	vals := map[string]storage.Value{":p": sx, ":a": n1, ":b": n5, ":s": storage.S("ab")}
	tests := []struct {
		src  string
		ks   storage.KeySchema
		op   storage.SortOp
		vals [2]storage.Value
	}{
		{"pk = :p", oracleKeySchema, storage.SortAny, [2]storage.Value{}},
		{"pk = :p AND sk = :a", oracleKeySchema, storage.SortEQ, [2]storage.Value{n1}},
		{"pk = :p AND sk < :a", oracleKeySchema, storage.SortLT, [2]storage.Value{n1}},
		{"pk = :p AND :a < sk", oracleKeySchema, storage.SortGT, [2]storage.Value{n1}},
		{"(pk = :p) AND (:a >= sk)", oracleKeySchema, storage.SortLE, [2]storage.Value{n1}},
		{"sk BETWEEN :a AND :b AND pk = :p", oracleKeySchema, storage.SortBetween, [2]storage.Value{n1, n5}},
		{"pk = :p AND begins_with(sk, :s)", storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindS}},
			storage.SortBeginsWith, [2]storage.Value{storage.S("ab")}},
	}
	for _, tt := range tests {
		c := NewCompiler(nil, vals)
		kc, err := c.KeyCondition(tt.src, tt.ks)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if !storage.Equal(kc.Partition, sx) || kc.Sort.Op != tt.op {
			t.Errorf("%q: got %+v", tt.src, kc)
		}
		for i := range tt.vals {
			if tt.vals[i].IsValid() && !storage.Equal(kc.Sort.Values[i], tt.vals[i]) {
				t.Errorf("%q: value %d got %v want %v", tt.src, i, kc.Sort.Values[i], tt.vals[i])
			}
		}
	}
	hashOnly := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	_, err := NewCompiler(nil, vals).KeyCondition("pk = :p AND sk > :a", hashOnly)
	if err == nil || err.Error() != "Query key condition not supported" {
		t.Errorf("sort condition on hash-only table: got %v", err)
	}
}

func TestKeyConditionMatch(t *testing.T) {
	kc := &KeyCondition{Partition: sx, Sort: storage.SortCondition{Op: storage.SortBeginsWith, Values: [2]storage.Value{storage.S("ab")}}}
	if !kc.Match(sx, storage.S("abc")) || kc.Match(sx, storage.S("a")) || kc.Match(sy, storage.S("abc")) {
		t.Error("begins_with match wrong")
	}
	kc.Sort = storage.SortCondition{Op: storage.SortBetween, Values: [2]storage.Value{n1, n5}}
	if !kc.Match(sx, storage.N("3")) || kc.Match(sx, storage.N("6")) {
		t.Error("between match wrong")
	}
}

func TestProjectionApply(t *testing.T) {
	item := storage.Item{
		"a": n1,
		"m": storage.M(map[string]storage.Value{"k": sx, "j": sy, "l": storage.L([]storage.Value{n1, n5, sx})}),
		"l": storage.L([]storage.Value{sx, sy, n1, n5}),
	}
	tests := []struct{ src, want string }{
		{"a", `{"a":{"N":"1"}}`},
		{"a, nope", `{"a":{"N":"1"}}`},
		{"m.k", `{"m":{"M":{"k":{"S":"x"}}}}`},
		{"m.k, m.l[2], m.l[0]", `{"m":{"M":{"k":{"S":"x"},"l":{"L":[{"N":"1"},{"S":"x"}]}}}}`},
		{"l[3], l[1], l[9]", `{"l":{"L":[{"S":"y"},{"N":"5"}]}}`},
		{"#m.#k", `{"m":{"M":{"k":{"S":"x"}}}}`},
	}
	for _, tt := range tests {
		c := NewCompiler(map[string]string{"#m": "m", "#k": "k"}, nil)
		p, err := c.Projection(tt.src)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if got := encodeItem(p.Apply(item)); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestUpdatedPaths(t *testing.T) {
	old := storage.Item{"a": n1, "m": storage.M(map[string]storage.Value{"k": sx, "j": sy}), "r": n5}
	c := NewCompiler(nil, map[string]storage.Value{":v": n5})
	u, err := c.Update("SET a = a + :v, m.k = :v REMOVE r ADD z :v")
	if err != nil {
		t.Fatal(err)
	}
	out, err := u.Apply(old)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := encodeItem(u.UpdatedOld(old)), `{"a":{"N":"1"},"m":{"M":{"k":{"S":"x"}}},"r":{"N":"5"}}`; got != want {
		t.Errorf("UPDATED_OLD: got %s, want %s", got, want)
	}
	if got, want := encodeItem(u.UpdatedNew(out)), `{"a":{"N":"6"},"m":{"M":{"k":{"N":"5"}}},"z":{"N":"5"}}`; got != want {
		t.Errorf("UPDATED_NEW: got %s, want %s", got, want)
	}
	if got := u.Attributes(); len(got) != 4 || got[0] != "a" || got[3] != "z" {
		t.Errorf("Attributes: got %v", got)
	}
	if got := u.UpdatedPaths()[1].String(); got != "m.k" {
		t.Errorf("path: got %s", got)
	}
}

// Unused keys are listed in the order DynamoDB's messages use (a Java
// HashSet's iteration order); both cases were recorded from DynamoDB Local.
func TestUnusedOrder(t *testing.T) {
	vals := map[string]storage.Value{}
	for _, k := range []string{":a", ":b", ":c", ":zz1", ":foo", ":bar"} {
		vals[k] = n1
	}
	err := NewCompiler(nil, vals).Unused()
	want := "Value provided in ExpressionAttributeValues unused in expressions: keys: {:bar, :a, :foo, :b, :c, :zz1}"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	vals = map[string]storage.Value{}
	for _, k := range []string{":x1", ":x2", ":x3", ":x4", ":x5", ":x6", ":x7", ":x8", ":x9", ":x10", ":x11", ":x12", ":x13"} {
		vals[k] = n1
	}
	err = NewCompiler(nil, vals).Unused()
	want = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x10, :x11, :x12, :x1, :x2, :x3, :x4, :x5, :x6, :x7, :x8, :x9, :x13}"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestConditionAttributes(t *testing.T) {
	c := NewCompiler(map[string]string{"#s": "sk"}, map[string]storage.Value{":v": n1})
	cond, err := c.Condition("FilterExpression", "a.b = :v AND size(#s) > :v OR attribute_exists(a)")
	if err != nil {
		t.Fatal(err)
	}
	if got := cond.Attributes(); len(got) != 2 || got[0] != "a" || got[1] != "sk" {
		t.Errorf("got %v", got)
	}
}

func TestReservedWords(t *testing.T) {
	if len(reservedWords()) != 573 {
		t.Errorf("got %d reserved words, want 573", len(reservedWords()))
	}
	for _, w := range []string{"status", "STATUS", "Name", "missing"} {
		if !IsReserved(w) {
			t.Errorf("%s should be reserved", w)
		}
	}
	for _, w := range []string{"contains", "begins_with", "size", "SIZE", "pk", "a"} {
		if IsReserved(w) {
			t.Errorf("%s should not be reserved", w)
		}
	}
}

// Recorded from DynamoDB Local: the placeholder maps are checked before any
// expression, even an empty or malformed one; names' keys, then values'
// keys, then names' values.
func TestPlaceholderMapErrors(t *testing.T) {
	tests := []struct {
		name   string
		names  map[string]string
		values map[string]storage.Value
		want   string
	}{
		{"ok", map[string]string{"#a": "a", "#_1": "b"}, map[string]storage.Value{":v": n1, ":1": n1}, ""},
		{"name without hash", map[string]string{"x": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"hash alone", map[string]string{"#": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#"`},
		{"name with dash", map[string]string{"#a-b": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#a-b"`},
		{"name with dot", map[string]string{"#a.b": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#a.b"`},
		{"name non-ASCII", map[string]string{"#é": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#é"`},
		{"name with colon", map[string]string{"#:": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#:"`},
		{"value without colon", nil, map[string]storage.Value{"v": n1}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{"colon alone", nil, map[string]storage.Value{":": n1}, `ExpressionAttributeValues contains invalid key: Syntax error; key: ":"`},
		{"double colon", nil, map[string]storage.Value{"::": n1}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "::"`},
		{"empty name", map[string]string{"#a": ""}, nil, "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"},
		{"names' keys before values' keys", map[string]string{"x": "a"}, map[string]storage.Value{"v": n1}, `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"values' keys before empty names", map[string]string{"#x": ""}, map[string]storage.Value{"v": n1}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{"keys before empty names", map[string]string{"#y": "", "x": "a"}, nil, `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"name key of 255 bytes", map[string]string{"#" + strings.Repeat("k", 254): "a"}, nil, ""},
		{"name key of 256 bytes", map[string]string{"#" + strings.Repeat("k", 255): "a"}, nil,
			"ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 256"},
		{"value key of 256 bytes", nil, map[string]storage.Value{":" + strings.Repeat("k", 255): n1},
			"ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"},
		{"too long before syntax", map[string]string{strings.Repeat("k", 300): "a"}, nil,
			"ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 300"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCompiler(tt.names, tt.values)
			got := ""
			if err := c.Err(); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("Err: got %q, want %q", got, tt.want)
			}
			if tt.want == "" {
				return
			}
			// Every compile method reports it before looking at its text.
			compiles := map[string]func() error{
				"condition":  func() error { _, err := c.Condition("ConditionExpression", ""); return err },
				"update":     func() error { _, err := c.Update("SET a = = b"); return err },
				"projection": func() error { _, err := c.Projection("a,,"); return err },
				"key":        func() error { _, err := c.KeyCondition("#zz = :zz", oracleKeySchema); return err },
			}
			for kind, compile := range compiles {
				if err := compile(); err == nil || err.Error() != tt.want {
					t.Errorf("%s: got %v, want %s", kind, err, tt.want)
				}
			}
		})
	}
}

// Recorded from DynamoDB Local: condition-like expressions state their size
// when over 4 KB; projections and updates do not.
func TestExpressionSizeMessages(t *testing.T) {
	pad := func(s string) string { return s + strings.Repeat(" ", 4097-len(s)) }
	c := NewCompiler(nil, map[string]storage.Value{":v": n1, ":p": sx})
	tests := []struct {
		kind    string
		compile func() error
		want    string
	}{
		{"condition", func() error { _, err := c.Condition("ConditionExpression", pad("a = :v")); return err },
			"Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
		{"filter", func() error { _, err := c.Condition("FilterExpression", pad("a = :v")); return err },
			"Invalid FilterExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
		{"key condition", func() error { _, err := c.KeyCondition(pad("pk = :p"), oracleKeySchema); return err },
			"Invalid KeyConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"},
		{"update", func() error { _, err := c.Update(pad("SET a = :v")); return err },
			"Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;"},
		{"projection", func() error { _, err := c.Projection(pad("a")); return err },
			"Invalid ProjectionExpression: Expression size has exceeded the maximum allowed size;"},
	}
	for _, tt := range tests {
		if err := tt.compile(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %s", tt.kind, err, tt.want)
		}
	}
}

// Recorded from DynamoDB Local: a key's value type is checked before its
// operator.
func TestKeyConditionTypeBeforeOperator(t *testing.T) {
	c := NewCompiler(nil, map[string]storage.Value{":n": n1, ":s": sx})
	for src, want := range map[string]string{
		"pk < :n":  "One or more parameter values were invalid: Condition parameter type does not match schema type",
		"pk < :s":  "Query key condition not supported",
		"pk <= :s": "Query key condition not supported",
	} {
		if _, err := c.KeyCondition(src, oracleKeySchema); err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", src, err, want)
		}
	}
}

// TestIsReservedCase: any case of a reserved word is reserved, ASCII on
// the fast path and the non-ASCII letters that upper-case to ASCII ones
// as strings.ToUpper has them.
func TestIsReservedCase(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"count", true}, {"Count", true}, {"COUNT", true}, {"counts", false},
		{"size", false}, {"SIZE", false}, {"", false}, {"a", false},
		{"\u017Ftatus", true}, // ſtatus upper-cases to STATUS
		{"t\u0131me", true},   // tıme: dotless i upper-cases to I
		{"préfix", false},
		{strings.Repeat("x", 40), false},
		{"CHARACTERISTICS", false}, {"DETERMINISTIC", true},
	}
	for _, tc := range tests {
		if got := IsReserved(tc.name); got != tc.want {
			t.Errorf("IsReserved(%q) = %v, want %v", tc.name, got, tc.want)
		}
		if got, want := IsReserved(tc.name), isReservedUpper(reservedWords(), strings.ToUpper(tc.name)); got != want {
			t.Errorf("IsReserved(%q) = %v, strings.ToUpper gives %v", tc.name, got, want)
		}
	}
}

// TestUnusedEchoCut: the unused keys of a large map are echoed up to
// MaxEcho bytes, whole keys only, the cut marked; a map whose keys fit
// is echoed whole.
func TestUnusedEchoCut(t *testing.T) {
	const head = "Value provided in ExpressionAttributeValues unused in expressions: keys: {"
	for _, n := range []int{10, 5000, 50000} {
		vals := map[string]storage.Value{}
		for i := range n {
			vals[fmt.Sprintf(":v%06d", i)] = n1
		}
		err := NewCompiler(nil, vals).Unused()
		require.Error(t, err)
		msg := err.Error()
		require.True(t, strings.HasPrefix(msg, head), msg[:min(len(msg), 200)])
		require.True(t, strings.HasSuffix(msg, "}"))
		keys := strings.TrimSuffix(strings.TrimPrefix(msg, head), "}")
		whole := n*len(":v000000") + (n-1)*len(", ") // the echo of every key
		if whole <= MaxEcho {
			require.Len(t, strings.Split(keys, ", "), n)
			continue
		}
		require.True(t, strings.HasSuffix(keys, EchoElided), keys[max(0, len(keys)-100):])
		keys = strings.TrimSuffix(keys, EchoElided)
		require.LessOrEqual(t, len(keys), MaxEcho)
		require.Greater(t, len(keys)+len(", :v000000"), MaxEcho, "the cut keeps every key that fits")
		for _, k := range strings.Split(keys, ", ") {
			_, ok := vals[k]
			require.Truef(t, ok, "%q is not a key: keys are echoed whole", k)
		}
	}
}
