package tablerec

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// VectorRecords returns the records of vector index definitions xs.
func VectorRecords(xs []*tablespec.VectorIndexDef) []Vector {
	var out []Vector
	for _, x := range xs {
		r := Vector{Name: x.Name, ARN: x.ARN, Attr: x.Attr, Dims: x.Dims, Distance: x.Distance,
			Projection: x.Projection.Type, NonKey: x.Projection.NonKey, ActiveAt: x.ActiveAt, Backfill: x.Backfill, GoneAt: x.GoneAt}
		for _, e := range x.Schema {
			r.Schema = append(r.Schema, Search{Name: e.Name, Type: e.Type, Kind: e.Kind.String()})
		}
		out = append(out, r)
	}
	return out
}

// VectorDefs returns the vector index definitions records rs hold,
// their storage definitions built.
func VectorDefs(rs []Vector) []*tablespec.VectorIndexDef {
	var out []*tablespec.VectorIndexDef
	for _, r := range rs {
		x := &tablespec.VectorIndexDef{Name: r.Name, ARN: r.ARN, Attr: r.Attr, Dims: r.Dims, Distance: r.Distance,
			Projection: tablespec.IndexProjection{Type: r.Projection, NonKey: r.NonKey}, ActiveAt: r.ActiveAt, Backfill: r.Backfill, GoneAt: r.GoneAt}
		for _, e := range r.Schema {
			x.Schema = append(x.Schema, tablespec.SearchElem{Name: e.Name, Type: e.Type, Kind: storage.KindFromString(e.Kind)})
		}
		x.Build()
		out = append(out, x)
	}
	return out
}

// KeyElemRecords returns the records of a key schema.
func KeyElemRecords(ks []tablespec.KeyElem) []Key {
	out := make([]Key, len(ks))
	for i, k := range ks {
		out[i] = Key{Name: k.Name, Value: k.KeyType}
	}
	return out
}

// KeyAttrRecords returns the records of key attributes, their kinds as
// text.
func KeyAttrRecords(as []storage.KeyAttr) []Key {
	var out []Key
	for _, a := range as {
		out = append(out, Key{Name: a.Name, Value: a.Kind.String()})
	}
	return out
}

// ThroughputRecord returns the record of a throughput and its history.
func ThroughputRecord(tp tablespec.Throughput) Throughput {
	return Throughput{Read: tp.Read, Write: tp.Write, LastIncrease: tp.LastIncrease, LastDecrease: tp.LastDecrease, DecreasesToday: tp.DecreasesToday}
}

// IndexRecords returns the records of secondary index definitions xs.
func IndexRecords(xs []*tablespec.IndexDef) []Index {
	var out []Index
	for _, x := range xs {
		r := Index{
			Name: x.Name, ARN: x.ARN, Local: x.Local,
			KeySchema: KeyElemRecords(x.KeySchema),
			Partition: KeyAttrRecords(x.PartAttrs),
			Sort:      KeyAttrRecords(x.SortAttrs),
			ActiveAt:  x.ActiveAt, GoneAt: x.GoneAt,
			Projection: x.Projection.Type, NonKey: x.Projection.NonKey,
			OnDemand: x.OnDemand,
			Warm:     Warm(x.Warm),
		}
		if x.Throughput != nil {
			tp := ThroughputRecord(*x.Throughput)
			r.Throughput = &tp
		}
		out = append(out, r)
	}
	return out
}

// KeyElems returns the key schema records rs hold.
func KeyElems(rs []Key) []tablespec.KeyElem {
	out := make([]tablespec.KeyElem, len(rs))
	for i, r := range rs {
		out[i] = tablespec.KeyElem{Name: r.Name, KeyType: r.Value}
	}
	return out
}

// KeyAttrs returns the key attributes records rs hold.
func KeyAttrs(rs []Key) []storage.KeyAttr {
	var out []storage.KeyAttr
	for _, r := range rs {
		out = append(out, storage.KeyAttr{Name: r.Name, Kind: storage.KindFromString(r.Value)})
	}
	return out
}

// ThroughputOf returns the throughput record r holds.
func ThroughputOf(r Throughput) tablespec.Throughput {
	return tablespec.Throughput{Read: r.Read, Write: r.Write, LastIncrease: r.LastIncrease, LastDecrease: r.LastDecrease, DecreasesToday: r.DecreasesToday}
}

// IndexDefs returns the secondary index definitions records rs hold,
// their first HASH and RANGE attributes as their key schema.
func IndexDefs(rs []Index) []*tablespec.IndexDef {
	var out []*tablespec.IndexDef
	for _, r := range rs {
		x := &tablespec.IndexDef{
			Name: r.Name, ARN: r.ARN, Local: r.Local,
			KeySchema: KeyElems(r.KeySchema),
			PartAttrs: KeyAttrs(r.Partition),
			SortAttrs: KeyAttrs(r.Sort),
			ActiveAt:  r.ActiveAt, GoneAt: r.GoneAt,
			Projection: tablespec.IndexProjection{Type: r.Projection, NonKey: r.NonKey},
			OnDemand:   r.OnDemand,
			Warm:       tablespec.Warm(r.Warm),
		}
		if len(x.PartAttrs) > 0 {
			x.Schema.Partition = x.PartAttrs[0]
		}
		if len(x.SortAttrs) > 0 {
			x.Schema.Sort = x.SortAttrs[0]
		}
		if r.Throughput != nil {
			tp := ThroughputOf(*r.Throughput)
			x.Throughput = &tp
		}
		out = append(out, x)
	}
	return out
}
