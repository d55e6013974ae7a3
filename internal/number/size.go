package number

// Size is the stored size of a number: a length byte, base-100 digit
// pairs aligned on the decimal point, and a terminator byte when negative.
func Size(n Number) int {
	neg, hi, lo, adj := n.Digits()
	if len(hi)+len(lo) == 0 {
		return 1
	}
	return DigitsSize(neg, len(hi)+len(lo), adj)
}

// DigitsSize is the size of a number other than zero of d significant
// digits whose leading digit has weight 10^adj.
func DigitsSize(neg bool, d, adj int) int {
	// The leading digit's pair starts on an even power.
	if adj%2 == 0 {
		d++ // the leading digit shares its pair with a leading zero
	}
	size := 1 + (d+1)/2
	if neg {
		size++
	}
	return size
}
