package insights

import "strconv"

// quote quotes a name for a message.
func quote(s string) string { return strconv.Quote(s) }

// itoa prints a count.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }
