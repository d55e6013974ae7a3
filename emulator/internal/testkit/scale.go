package testkit

import (
	"os"
	"strconv"
	"time"
)

// TimeScaleEnv scales the bounds tests wait within to catch a hang: on a
// machine slower or busier than a shared 2-core one, set it above 1
// (DYNAMOEMU_TEST_TIMEOUT_SCALE=3).
const TimeScaleEnv = "DYNAMOEMU_TEST_TIMEOUT_SCALE"

// Scaled is d times the scale TimeScaleEnv gives (1 when unset or not a
// positive number).
func Scaled(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv(TimeScaleEnv), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}
