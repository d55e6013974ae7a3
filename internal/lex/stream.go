package lex

// Item is one token of a stream: its byte offset in the source, its kind
// and its source text.
type Item[T comparable] struct {
	Pos int
	Tok T
	Lit string
}

// Stream is the whole token stream of one source text (an expression or a
// statement is at most a few KB), scanned up front so that a parser can
// look ahead and back freely: syntax errors quote the tokens around the
// offending one. The last item is always the end-of-input token.
type Stream[T comparable] struct {
	items []Item[T]
	i     int
}

// Fill scans the whole source with scan, which returns the next token, and
// stops after the first eof token. sizeHint is the expected number of
// tokens (0: unknown).
func (s *Stream[T]) Fill(scan func() (int, T, string), eof T, sizeHint int) {
	s.items = make([]Item[T], 0, sizeHint)
	s.i = 0
	for {
		pos, tok, lit := scan()
		s.items = append(s.items, Item[T]{pos, tok, lit})
		if tok == eof {
			return
		}
	}
}

// Tok returns the kind of the current token.
func (s *Stream[T]) Tok() T { return s.items[s.i].Tok }

// Cur returns the current token.
func (s *Stream[T]) Cur() Item[T] { return s.items[s.i] }

// Peek returns the kind of the token n places ahead; past the end, the
// end-of-input token's.
func (s *Stream[T]) Peek(n int) T {
	if s.i+n < len(s.items) {
		return s.items[s.i+n].Tok
	}
	return s.items[len(s.items)-1].Tok
}

// Next moves to the next token; at the end of input it stays there.
func (s *Stream[T]) Next() {
	if s.i < len(s.items)-1 {
		s.i++
	}
}

// Index returns the current token's index in the stream.
func (s *Stream[T]) Index() int { return s.i }

// At returns the token at index i (0 <= i < Len()).
func (s *Stream[T]) At(i int) Item[T] { return s.items[i] }

// Len returns the number of tokens, the end-of-input token included.
func (s *Stream[T]) Len() int { return len(s.items) }
