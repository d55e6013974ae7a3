package shapes

import (
	"fmt"
	"strconv"
	"time"
)

// EpochTime is a timestamp on the wire: seconds since the epoch with
// millisecond precision, as a JSON number (1795307814.938).
type EpochTime time.Time

func (t EpochTime) MarshalJSON() ([]byte, error) {
	ms := time.Time(t).UnixMilli()
	sec, frac := ms/1000, ms%1000
	if frac < 0 {
		sec, frac = sec-1, frac+1000
	}
	return []byte(strconv.FormatInt(sec, 10) + "." + fmt.Sprintf("%03d", frac)), nil
}

// UnmarshalJSON reads an epoch time as MarshalJSON writes it (seconds,
// fraction), for operations restored from disk and a client's answers.
func (t *EpochTime) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*t = EpochTime(EpochSeconds(f))
	return nil
}

// Time is t as a time.Time.
func (t EpochTime) Time() time.Time { return time.Time(t) }

// EpochSeconds is a timestamp in epoch seconds as a time, to the
// millisecond.
func EpochSeconds(s float64) time.Time {
	sec := int64(s)
	return time.Unix(sec, int64((s-float64(sec))*1e9)).Round(time.Millisecond)
}
