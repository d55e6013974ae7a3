package conventions

import (
	"errors"
	"testing"
)

func TestParseSortKey(t *testing.T) {
	tests := []struct {
		sk      string
		base    string
		version int
		err     error
	}{
		{"X@1", "X", 1, nil},
		{"ORDER#01HX@12", "ORDER#01HX", 12, nil},
		{"@3", "", 3, nil},
		{"X", "", 0, ErrNoVersion},
		{"", "", 0, ErrNoVersion},
		{"a@b@3", "", 0, ErrAtInBase},
		{"user@example.com", "", 0, ErrVersionSyntax},
		{"X@", "", 0, ErrVersionSyntax},
		{"X@007", "", 0, ErrVersionSyntax},
		{"X@1.5", "", 0, ErrVersionSyntax},
		{"X@0x10", "", 0, ErrVersionSyntax},
		{"X@1e3", "", 0, ErrVersionSyntax},
		{"X@ 3 ", "", 0, ErrVersionSyntax},
		{"X@+3", "", 0, ErrVersionSyntax},
		{"X@Infinity", "", 0, ErrVersionSyntax},
		{"X@-01", "", 0, ErrVersionSyntax},
		{"X@00", "", 0, ErrVersionSyntax},
		{"X@-", "", 0, ErrVersionSyntax},
		{"X@0", "", 0, ErrVersionRange},
		{"X@-0", "", 0, ErrVersionRange},
		{"X@-1", "", 0, ErrVersionRange},
		{"X@-2", "", 0, ErrVersionRange},
		{"X@99999999999999999999", "", 0, ErrVersionRange},
	}
	for _, tt := range tests {
		base, v, err := ParseSortKey(tt.sk)
		if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
			t.Errorf("ParseSortKey(%q): got error %v, want %v", tt.sk, err, tt.err)
			continue
		}
		if base != tt.base || v != tt.version {
			t.Errorf("ParseSortKey(%q): got %q, %d, want %q, %d", tt.sk, base, v, tt.base, tt.version)
		}
	}
}

func TestBaseSortKeyAndNewID(t *testing.T) {
	tests := []struct {
		sk, base, id string
		err          error
	}{
		{"X", "X", "A#t#X", nil},
		{"X@3", "X", "A#t#X", nil},
		{"ORDER#1@2", "ORDER#1", "A#t#ORDER#1", nil},
		{"a@b", "", "", ErrVersionSyntax},
		{"user@example.com", "", "", ErrVersionSyntax},
		{"a@b@3", "", "", ErrAtInBase},
		{"X@", "", "", ErrVersionSyntax},
		{"X@0", "", "", ErrVersionRange},
	}
	for _, tt := range tests {
		base, err := BaseSortKey(tt.sk)
		if !errors.Is(err, tt.err) || base != tt.base {
			t.Errorf("BaseSortKey(%q): got %q, %v, want %q, %v", tt.sk, base, err, tt.base, tt.err)
		}
		id, err := NewID("A#t", tt.sk)
		if !errors.Is(err, tt.err) || id != tt.id {
			t.Errorf("NewID(A#t, %q): got %q, %v, want %q, %v", tt.sk, id, err, tt.id, tt.err)
		}
	}
}

func TestVersionedSortKey(t *testing.T) {
	tests := []struct {
		base    string
		version int
		want    string
		err     error
	}{
		{"X", 1, "X@1", nil},
		{"ORDER#1", 42, "ORDER#1@42", nil},
		{"", 1, "@1", nil},
		{"user@example.com", 1, "", ErrAtInBase},
		{"X@2", 3, "", ErrAtInBase},
		{"X", 0, "", ErrVersionRange},
		{"X", VersionLatest, "", ErrVersionRange},
	}
	for _, tt := range tests {
		got, err := VersionedSortKey(tt.base, tt.version)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("VersionedSortKey(%q, %d): got %q, %v, want %q, %v", tt.base, tt.version, got, err, tt.want, tt.err)
		}
		if err == nil {
			if base, v, err := ParseSortKey(got); err != nil || base != tt.base || v != tt.version {
				t.Errorf("ParseSortKey(%q): got %q, %d, %v, want the round trip", got, base, v, err)
			}
		}
	}
}

func TestParseTenantAndTenantAt(t *testing.T) {
	tests := []struct {
		pk      string
		segment int // 0: ParseTenant
		want    string
		err     error
	}{
		{"PRODUCT#tenant001", 0, "tenant001", nil},
		{"LOG#t#2024-01", 0, "2024-01", nil},
		{"#t", 0, "t", nil},
		{"A", 0, "", ErrNoTenant},
		{"", 0, "", ErrNoTenant},
		{"A#", 0, "", ErrNoTenant},
		{"LOG#t#2024-01", 1, "t", nil},
		{"LOG#t#2024-01", 2, "2024-01", nil},
		{"LOG#t#2024-01", 3, "", ErrNoTenant},
		{"LOG##2024-01", 1, "", ErrNoTenant},
		{"A", 1, "", ErrNoTenant},
		{"A#b", -1, "", ErrNoTenant},
	}
	for _, tt := range tests {
		var got string
		var err error
		if tt.segment == 0 {
			got, err = ParseTenant(tt.pk)
		} else {
			got, err = TenantAt(tt.pk, tt.segment)
		}
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("tenant of %q at %d: got %q, %v, want %q, %v", tt.pk, tt.segment, got, err, tt.want, tt.err)
		}
	}
	if got, err := TenantAt("t#ORDER", 0); got != "t" || err != nil {
		t.Errorf("TenantAt(t#ORDER, 0): got %q, %v, want t", got, err)
	}
	if _, err := TenantAt("t", 0); !errors.Is(err, ErrNoTenant) {
		t.Errorf("TenantAt(t, 0): got %v, want ErrNoTenant", err)
	}
}
