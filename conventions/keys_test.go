package conventions

import (
	"math"
	"testing"
)

// TestStudyEdgeCases reproduces the edge-case table of the study
// (shared/mbc-conventions.md §1, the framework's helpers run under Node 20),
// row by row.
func TestStudyEdgeCases(t *testing.T) {
	str := func(s string) string { return s }
	num := jsNumberString
	tenant := func(pk string) string {
		s, ok := TenantCode(pk)
		if !ok {
			return "undefined"
		}
		return "'" + s + "'"
	}
	tests := []struct {
		call, got, want string
	}{
		{"generateId('A#t','X@3')", str(GenerateID("A#t", "X@3")), "A#t#X"},
		{"generateId('A#t','a@b@3')", str(GenerateID("A#t", "a@b@3")), "A#t#a@b"},
		{"generateId('A#t','a@b')", str(GenerateID("A#t", "a@b")), "A#t#a"},
		{"generateId('A#t','X@')", str(GenerateID("A#t", "X@")), "A#t#X"},
		{"getTenantCode('LOG#t#2024-01')", tenant("LOG#t#2024-01"), "'2024-01'"},
		{"getTenantCode('A')", tenant("A"), "undefined"},
		{"getTenantCode('')", tenant(""), "undefined"},
		{"getTenantCode('A#')", tenant("A#"), "''"},
		{"getTenantCode('#t')", tenant("#t"), "'t'"},
		{"getSortKeyVersion('X')", num(SortKeyVersion("X")), "-1"},
		{"getSortKeyVersion('X@')", num(SortKeyVersion("X@")), "0"},
		{"getSortKeyVersion('X@abc')", num(SortKeyVersion("X@abc")), "NaN"},
		{"getSortKeyVersion('a@3@b')", num(SortKeyVersion("a@3@b")), "NaN"},
		{"getSortKeyVersion('X@-1')", num(SortKeyVersion("X@-1")), "-1"},
		{"getSortKeyVersion('X@1.5')", num(SortKeyVersion("X@1.5")), "1.5"},
		{"getSortKeyVersion('X@0x10')", num(SortKeyVersion("X@0x10")), "16"},
		{"getSortKeyVersion('X@1e3')", num(SortKeyVersion("X@1e3")), "1000"},
		{"getSortKeyVersion('X@007')", num(SortKeyVersion("X@007")), "7"},
		{"getSortKeyVersion('X@ 3 ')", num(SortKeyVersion("X@ 3 ")), "3"},
		{"getSortKeyVersion('X@Infinity')", num(SortKeyVersion("X@Infinity")), "Infinity"},
		{"getSortKeyVersion('a@b@3')", num(SortKeyVersion("a@b@3")), "3"},
		{"removeSortKeyVersion('a@b@3')", str(RemoveSortKeyVersion("a@b@3")), "a@b"},
		{"removeSortKeyVersion('a@3@b')", str(RemoveSortKeyVersion("a@3@b")), "a@3"},
		{"removeSortKeyVersion('user@example.com')", str(RemoveSortKeyVersion("user@example.com")), "user"},
		{"removeSortKeyVersion('@3')", str(RemoveSortKeyVersion("@3")), ""},
		{"addSortKeyVersion('X@2',3)", str(AddSortKeyVersion("X@2", 3)), "X@3"},
		{"addSortKeyVersion('user@example.com',1)", str(AddSortKeyVersion("user@example.com", 1)), "user@1"},
		{"addSortKeyVersion('X',-1)", str(AddSortKeyVersion("X", -1)), "X@-1"},
		{"addSortKeyVersion('X',NaN)", str(AddSortKeyVersion("X", math.NaN())), "X@NaN"},
		{"masterPk('')", str(MasterPK("")), "MASTER#single"},
		{"seqPk()", str(SeqPK("")), "SEQ#single"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.call, tt.got, tt.want)
		}
	}
}

func TestHelpers(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"GenerateID plain", GenerateID("PRODUCT#tenant001", "01HX7MBJK3V9WQBZ7XNDK5ZT2M"), "PRODUCT#tenant001#01HX7MBJK3V9WQBZ7XNDK5ZT2M"},
		{"RemoveSortKeyVersion no @", RemoveSortKeyVersion("ORDER#1"), "ORDER#1"},
		{"AddSortKeyVersion plain", AddSortKeyVersion("ORDER#1", 3), "ORDER#1@3"},
		{"AddSortKeyVersion 1.5", AddSortKeyVersion("X", 1.5), "X@1.5"},
		{"AddSortKeyVersion Inf", AddSortKeyVersion("X", math.Inf(1)), "X@Infinity"},
		{"MasterPK", MasterPK("tenant001"), "MASTER#tenant001"},
		{"MasterPK keeps case", MasterPK("MBC"), "MASTER#MBC"},
		{"SeqPK", SeqPK("t1"), "SEQ#t1"},
		{"TTLSK", TTLSK("local-test-testing_table-command"), "TTL#local-test-testing_table-command"},
		{"TTLSK empty", TTLSK(""), "TTL#"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if got := SortKeyVersion("X@abc"); !math.IsNaN(got) {
		t.Errorf("SortKeyVersion(X@abc): got %v, want NaN", got)
	}
	if got := SortKeyVersion("ORDER#1@3"); got != 3 {
		t.Errorf("SortKeyVersion(ORDER#1@3): got %v, want 3", got)
	}
}

func TestConstants(t *testing.T) {
	if KeySeparator != "#" || VerSeparator != "@" || VersionFirst != 0 || VersionLatest != -1 ||
		TenantCommon != "common" || DefaultTenantCode != "single" {
		t.Errorf("constants differ from the framework's")
	}
}
