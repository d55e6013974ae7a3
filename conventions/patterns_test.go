package conventions

import (
	"errors"
	"testing"
	"time"
)

func TestPatterns(t *testing.T) {
	at := time.Date(2024, 1, 15, 19, 30, 0, 0, time.FixedZone("JST", 9*3600))
	must := func(k Keys, err error) Keys {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	tests := []struct {
		name string
		got  Keys
		want Keys
	}{
		{"simple entity", must(SimpleEntity("PRODUCT", "tenant001", "01HX7MBJK3V9WQBZ7XNDK5ZT2M")),
			Keys{"PRODUCT#tenant001", "01HX7MBJK3V9WQBZ7XNDK5ZT2M", "PRODUCT#tenant001#01HX7MBJK3V9WQBZ7XNDK5ZT2M"}},
		{"hierarchy parent", must(Hierarchy("ORDER", "tenant001", "ORDER", "01HX")),
			Keys{"ORDER#tenant001", "ORDER#01HX", "ORDER#tenant001#ORDER#01HX"}},
		{"hierarchy child", must(Hierarchy("ORDER", "tenant001", "ORDER_ITEM", "01HX", "001")),
			Keys{"ORDER#tenant001", "ORDER_ITEM#01HX#001", "ORDER#tenant001#ORDER_ITEM#01HX#001"}},
		{"composite sk", must(CompositeSK("USER", "common", "sso", "abc123")),
			Keys{"USER#common", "sso#abc123", "USER#common#sso#abc123"}},
		{"common tenant", must(CommonTenant("USER_TENANT", "tenant001", "user123")),
			Keys{"USER_TENANT#common", "tenant001#user123", "USER_TENANT#common#tenant001#user123"}},
		{"master data", must(MasterData("tenant001", "DATA", "product_category", "electronics")),
			Keys{"MASTER#tenant001", "DATA#product_category#electronics", "MASTER#tenant001#DATA#product_category#electronics"}},
		{"master data default tenant", must(MasterData("", "SETTING", "notification", "email_template")),
			Keys{"MASTER#single", "SETTING#notification#email_template", "MASTER#single#SETTING#notification#email_template"}},
		{"time series", must(TimeSeries("LOG", "tenant001", at, "evt001")),
			Keys{"LOG#tenant001#2024-01", "2024-01-15T10:30:00.000Z#evt001", "LOG#tenant001#2024-01#2024-01-15T10:30:00.000Z#evt001"}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, tt.got, tt.want)
		}
		if id := GenerateID(tt.got.PK, tt.got.SK); id != tt.got.ID {
			t.Errorf("%s: ID %q is not GenerateID %q", tt.name, tt.got.ID, id)
		}
	}
}

func TestPatternsRefuseBadSegments(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"empty prefix", second(SimpleEntity("", "t", "x"))},
		{"empty tenant", second(SimpleEntity("P", "", "x"))},
		{"# in tenant", second(SimpleEntity("P", "a#b", "x"))},
		{"@ in id", second(SimpleEntity("P", "t", "user@example.com"))},
		{"# in segment", second(Hierarchy("ORDER", "t", "ORDER_ITEM", "1#2"))},
		{"no segments", second(Hierarchy("ORDER", "t"))},
		{"empty code", second(CommonTenant("USER_TENANT", "t1", ""))},
		{"# in master category", second(MasterData("t", "DATA", "a#b", "c"))},
		{"@ in event id", second(TimeSeries("LOG", "t", time.Unix(0, 0), "e@1"))},
		{"# in time series tenant", second(TimeSeries("LOG", "t#x", time.Unix(0, 0), "e1"))},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, ErrBadSegment) {
			t.Errorf("%s: got %v, want ErrBadSegment", tt.name, tt.err)
		}
	}
	if _, err := EntityPK("P", "t"); err != nil {
		t.Errorf("EntityPK(P, t): got %v, want nil", err)
	}
}

func second[T any](_ T, err error) error { return err }
