package service

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestVectorSearchRandom: a random workload through the API (PutItem,
// UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, PartiQL
// INSERT, UPDATE and DELETE, TTL deletions) on tables with a vector index
// of each distance function, with and without a search schema, checked
// after every step by a SearchVectors against a brute-force reference
// in float64 over a model of the items. Scores agree within float32's
// error; the order agrees but for results whose reference scores are
// that close. Its seed is logged; DYNAMOEMU_REPLAY_SEED replays it.
func TestVectorSearchRandom(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	for _, dist := range []string{"COSINE", "EUCLIDEAN", "DOT_PRODUCT"} {
		for _, schema := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/schema=%v", dist, schema), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, uint64(len(dist))*2+uint64(len(fmt.Sprint(schema)))))
				w := newVectorWorld(t, dist, schema)
				for step := range 300 {
					w.step(r)
					w.check(r, step)
					if t.Failed() {
						t.Logf("seed %d (replay: %s=%d)", seed, testkit.ReplaySeedEnv, seed)
						return
					}
				}
				if w.results < 300 {
					t.Errorf("only %d results in 300 searches: the workload checks too little", w.results)
				}
			})
		}
	}
}

const vecDims = 4

// vecItem is the model of one item: its key, search schema attributes
// (tenant "" and cat -1: absent), vector (nil: none) and TTL.
type vecItem struct {
	pk      string
	sk      int
	tenant  string
	cat     int
	v       []float64
	expired bool
}

type vectorWorld struct {
	t       *testing.T
	e       *Service
	dist    string
	schema  bool
	items   map[string]*vecItem // by pk#sk
	results int                 // search results checked
}

func newVectorWorld(t *testing.T, dist string, schema bool) *vectorWorld {
	e := newTablesEmulator(t)
	defs := `{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}`
	ss := ""
	if schema {
		defs += `,{"AttributeName":"tenant","AttributeType":"S"},{"AttributeName":"cat","AttributeType":"N"}`
		ss = `,"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},{"AttributeName":"cat","SearchSchemaElementType":"INLINE_FILTER"}]`
	}
	mustTables(t, e, "CreateTable", `{"TableName":"vrand","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[`+defs+`],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],`+
		`"VectorIndexes":[{"IndexName":"vidx","VectorAttribute":{"AttributeName":"v"},"Dimensions":`+strconv.Itoa(vecDims)+
		`,"DistanceFunction":"`+dist+`","Projection":{"ProjectionType":"ALL"}`+ss+`}]}`)
	mustTables(t, e, "UpdateTimeToLive", `{"TableName":"vrand","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`)
	return &vectorWorld{t: t, e: e, dist: dist, schema: schema, items: map[string]*vecItem{}}
}

func (w *vectorWorld) randItem(r *rand.Rand) *vecItem {
	it := &vecItem{pk: fmt.Sprint("p", r.IntN(6)), sk: r.IntN(8), cat: -1}
	if r.IntN(5) > 0 {
		it.tenant = fmt.Sprint("t", r.IntN(3))
	}
	if r.IntN(3) > 0 {
		it.cat = r.IntN(3)
	}
	if r.IntN(6) > 0 {
		it.v = randVector(r)
	}
	it.expired = r.IntN(12) == 0
	return it
}

// randVector is a vector of numbers with two decimals in [-10, 10],
// sometimes all zero.
func randVector(r *rand.Rand) []float64 {
	v := make([]float64, vecDims)
	if r.IntN(20) == 0 {
		return v
	}
	for i := range v {
		v[i] = float64(r.IntN(2001)-1000) / 100
	}
	return v
}

func (it *vecItem) key() string { return it.pk + "#" + strconv.Itoa(it.sk) }

func (it *vecItem) keyJSON() string {
	return `{"pk":{"S":"` + it.pk + `"},"sk":{"N":"` + strconv.Itoa(it.sk) + `"}}`
}

func vecJSON(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = `{"N":"` + strconv.FormatFloat(x, 'f', -1, 64) + `"}`
	}
	return `{"L":[` + strings.Join(parts, ",") + `]}`
}

func (it *vecItem) json() string {
	b := `{"pk":{"S":"` + it.pk + `"},"sk":{"N":"` + strconv.Itoa(it.sk) + `"}`
	if it.tenant != "" {
		b += `,"tenant":{"S":"` + it.tenant + `"}`
	}
	if it.cat >= 0 {
		b += `,"cat":{"N":"` + strconv.Itoa(it.cat) + `"}`
	}
	if it.v != nil {
		b += `,"v":` + vecJSON(it.v)
	}
	if it.expired {
		b += `,"exp":{"N":"` + strconv.FormatInt(tablesClock.Unix()-100, 10) + `"}`
	}
	return b + `}`
}

// partiQL returns the item as a PartiQL tuple.
func (it *vecItem) partiQL() string {
	b := `{'pk': '` + it.pk + `', 'sk': ` + strconv.Itoa(it.sk)
	if it.tenant != "" {
		b += `, 'tenant': '` + it.tenant + `'`
	}
	if it.cat >= 0 {
		b += `, 'cat': ` + strconv.Itoa(it.cat)
	}
	if it.v != nil {
		b += `, 'v': ` + vecPartiQL(it.v)
	}
	if it.expired {
		b += `, 'exp': ` + strconv.FormatInt(tablesClock.Unix()-100, 10)
	}
	return b + `}`
}

func vecPartiQL(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (w *vectorWorld) step(r *rand.Rand) {
	t := w.t
	it := w.randItem(r)
	switch op := r.IntN(20); {
	case op < 6:
		mustTables(t, w.e, "PutItem", `{"TableName":"vrand","Item":`+it.json()+`}`)
		w.items[it.key()] = it
	case op < 9: // update the vector, or remove it, or change the tenant
		old := w.items[it.key()]
		if old == nil {
			return
		}
		nu := *old
		var upd, vals string
		switch r.IntN(3) {
		case 0:
			nu.v = randVector(r)
			upd, vals = "SET v = :v", `{":v":`+vecJSON(nu.v)+`}`
		case 1:
			nu.v = nil
			upd = "REMOVE v"
		default:
			nu.tenant = fmt.Sprint("t", r.IntN(3))
			upd, vals = "SET tenant = :t", `{":t":{"S":"`+nu.tenant+`"}}`
		}
		body := `{"TableName":"vrand","Key":` + it.keyJSON() + `,"UpdateExpression":"` + upd + `"`
		if vals != "" {
			body += `,"ExpressionAttributeValues":` + vals
		}
		mustTables(t, w.e, "UpdateItem", body+`}`)
		w.items[it.key()] = &nu
	case op < 11:
		mustTables(t, w.e, "DeleteItem", `{"TableName":"vrand","Key":`+it.keyJSON()+`}`)
		delete(w.items, it.key())
	case op < 13: // a batch of puts and deletes on distinct keys
		var reqs []string
		seen := map[string]bool{}
		for range 1 + r.IntN(5) {
			x := w.randItem(r)
			if seen[x.key()] {
				continue
			}
			seen[x.key()] = true
			if r.IntN(3) == 0 {
				reqs = append(reqs, `{"DeleteRequest":{"Key":`+x.keyJSON()+`}}`)
				delete(w.items, x.key())
			} else {
				reqs = append(reqs, `{"PutRequest":{"Item":`+x.json()+`}}`)
				w.items[x.key()] = x
			}
		}
		mustTables(t, w.e, "BatchWriteItem", `{"RequestItems":{"vrand":[`+strings.Join(reqs, ",")+`]}}`)
	case op < 15: // a transaction of puts, deletes and vector updates
		var acts []string
		seen := map[string]bool{}
		for range 1 + r.IntN(4) {
			x := w.randItem(r)
			if seen[x.key()] {
				continue
			}
			seen[x.key()] = true
			switch r.IntN(3) {
			case 0:
				acts = append(acts, `{"Delete":{"TableName":"vrand","Key":`+x.keyJSON()+`}}`)
				delete(w.items, x.key())
			case 1:
				acts = append(acts, `{"Put":{"TableName":"vrand","Item":`+x.json()+`}}`)
				w.items[x.key()] = x
			default:
				v := randVector(r)
				acts = append(acts, `{"Update":{"TableName":"vrand","Key":`+x.keyJSON()+`,"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":`+vecJSON(v)+`}}}`)
				if old := w.items[x.key()]; old != nil {
					nu := *old
					nu.v = v
					w.items[x.key()] = &nu
				} else {
					w.items[x.key()] = &vecItem{pk: x.pk, sk: x.sk, cat: -1, v: v}
				}
			}
		}
		mustTables(t, w.e, "TransactWriteItems", `{"TransactItems":[`+strings.Join(acts, ",")+`]}`)
	case op < 18: // PartiQL
		where := `pk = '` + it.pk + `' AND sk = ` + strconv.Itoa(it.sk)
		old := w.items[it.key()]
		var stmt string
		switch {
		case old == nil:
			stmt = `INSERT INTO "vrand" VALUE ` + it.partiQL()
			w.items[it.key()] = it
		case r.IntN(2) == 0:
			v := randVector(r)
			stmt = `UPDATE "vrand" SET v = ` + vecPartiQL(v) + ` WHERE ` + where
			nu := *old
			nu.v = v
			w.items[it.key()] = &nu
		default:
			stmt = `DELETE FROM "vrand" WHERE ` + where
			delete(w.items, it.key())
		}
		body, _ := json.Marshal(map[string]string{"Statement": stmt})
		mustTables(t, w.e, "ExecuteStatement", string(body))
	default: // TTL deletes the expired items
		w.e.SweepTTL()
		for k, x := range w.items {
			if x.expired {
				delete(w.items, k)
			}
		}
	}
}

// refScore scores a against q in float64 as the distance function says.
func refScore(dist string, q, a []float64) float64 {
	var dot, qq, aa, d2 float64
	for i := range q {
		dot += q[i] * a[i]
		qq += q[i] * q[i]
		aa += a[i] * a[i]
		d2 += (q[i] - a[i]) * (q[i] - a[i])
	}
	switch dist {
	case "COSINE":
		if qq == 0 || aa == 0 {
			return 1
		}
		return min(2, max(0, 1-dot/math.Sqrt(qq*aa)))
	case "EUCLIDEAN":
		return math.Sqrt(d2)
	}
	return dot
}

type refResult struct {
	key   string
	score float64
}

// check searches the index and compares with the reference.
func (w *vectorWorld) check(r *rand.Rand, step int) {
	t := w.t
	q := randVector(r)
	topK := 1 + r.IntN(20)
	tenant, cat := "", -1
	body := `{"TableName":"vrand","IndexName":"vidx","SearchVector":` + strings.TrimSuffix(strings.TrimPrefix(vecJSON(q), `{"L":`), `}`) + `,"TopK":` + strconv.Itoa(topK)
	if w.schema {
		tenant = fmt.Sprint("t", r.IntN(3))
		cond, vals := "tenant = :t", `":t":{"S":"`+tenant+`"}`
		if r.IntN(2) == 0 {
			cat = r.IntN(3)
			cond, vals = cond+" AND cat = :c", vals+`,":c":{"N":"`+strconv.Itoa(cat)+`"}`
		}
		body += `,"SearchConditionExpression":"` + cond + `","ExpressionAttributeValues":{` + vals + `}`
	}
	out := mustTables(t, w.e, "SearchVectors", body+`}`)
	var resp struct {
		SearchResults []struct {
			Item  map[string]map[string]any
			Score float64
		}
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("step %d: %v: %s", step, err, out)
	}
	var ref []refResult
	byKey := map[string]float64{}
	for k, x := range w.items {
		if x.v == nil || (w.schema && (x.tenant == "" || x.tenant != tenant || (cat >= 0 && x.cat != cat))) {
			continue
		}
		s := refScore(w.dist, q, x.v)
		ref = append(ref, refResult{k, s})
		byKey[k] = s
	}
	desc := w.dist == "DOT_PRODUCT"
	slices.SortFunc(ref, func(a, b refResult) int {
		if desc {
			a, b = b, a
		}
		if a.score < b.score {
			return -1
		}
		if a.score > b.score {
			return 1
		}
		return 0
	})
	tol := func(s float64) float64 { return 1e-4 * (1 + math.Abs(s)) }
	if got, want := len(resp.SearchResults), min(topK, len(ref)); got != want {
		t.Fatalf("step %d: %s: got %d results, want %d", step, body, got, want)
	}
	seen := map[string]bool{}
	for i, res := range resp.SearchResults {
		k := res.Item["pk"]["S"].(string) + "#" + res.Item["sk"]["N"].(string)
		rs, ok := byKey[k]
		switch {
		case !ok || seen[k]:
			t.Fatalf("step %d: result %d is %s, not a candidate (or twice)", step, i, k)
		case math.Abs(rs-res.Score) > tol(rs):
			t.Fatalf("step %d: result %d (%s) scores %v, reference %v", step, i, k, res.Score, rs)
		case math.Abs(ref[i].score-res.Score) > tol(res.Score):
			t.Fatalf("step %d: result %d scores %v, the reference's %d-th best is %v", step, i, res.Score, i, ref[i].score)
		}
		seen[k] = true
		w.results++
		if _, has := res.Item["v"]; has {
			t.Fatalf("step %d: result %d holds the vector without a ProjectionExpression", step, i)
		}
	}
}
