package accessreport

import "strconv"

// quote quotes a name for a message.
func quote(s string) string { return strconv.Quote(s) }

// itoa prints a count.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
