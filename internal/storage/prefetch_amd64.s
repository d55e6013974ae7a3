#include "textflag.h"

// func prefetchLines(p unsafe.Pointer, n uintptr)
// PREFETCHT0 of each cache line of [p, p+n), at least the first: a hint,
// which neither faults nor waits, so p may be any address.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
next:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, CX
	JB next
	RET
