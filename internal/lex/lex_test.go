package lex

import "testing"

func TestStream(t *testing.T) {
	toks := []Item[int]{{0, 1, "a"}, {2, 2, "b"}, {3, 0, ""}}
	i := 0
	var s Stream[int]
	s.Fill(func() (int, int, string) { it := toks[i]; i++; return it.Pos, it.Tok, it.Lit }, 0, 0)
	if got, want := s.Len(), 3; got != want {
		t.Fatalf("Len: got %d, want %d", got, want)
	}
	if got := s.Tok(); got != 1 {
		t.Errorf("Tok: got %d, want 1", got)
	}
	if got := s.Peek(1); got != 2 {
		t.Errorf("Peek(1): got %d, want 2", got)
	}
	if got := s.Peek(9); got != 0 {
		t.Errorf("Peek past the end: got %d, want the end's 0", got)
	}
	s.Next()
	s.Next()
	s.Next()
	if got, want := s.Cur(), (Item[int]{3, 0, ""}); got != want || s.Index() != 2 {
		t.Errorf("Next at the end: got %v at %d, want %v at 2", got, s.Index(), want)
	}
	if got := s.At(1).Lit; got != "b" {
		t.Errorf("At(1): got %q, want b", got)
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		src       string
		off       int
		line, col int
	}{
		{"abc", 2, 1, 3},
		{"a\nbc", 3, 2, 2},
		{"😀x", 4, 1, 3}, // the emoji is two UTF-16 units
		{"ab", 9, 1, 3},
		{"ab", -1, 1, 1},
	}
	for _, tt := range tests {
		if l, c := Position(tt.src, tt.off); l != tt.line || c != tt.col {
			t.Errorf("Position(%q, %d): got %d:%d, want %d:%d", tt.src, tt.off, l, c, tt.line, tt.col)
		}
	}
	if got, want := UTF16Len("a😀é"), 4; got != want {
		t.Errorf("UTF16Len: got %d, want %d", got, want)
	}
	if !IsLetter('Q') || IsLetter('_') || !IsDigit('7') || IsDigit('a') {
		t.Error("character classes wrong")
	}
}
