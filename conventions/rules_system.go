package conventions

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Rule B11: the key shapes of the framework's own system tables, which its
// packages write and nothing else should.
//
// Tasks (the task package's TaskService.createTask and its sub-tasks): pk
// TASK#<tenant> or SFN_TASK#<tenant> (Step Functions tasks), sk
// <taskType>#<code>, a sub-task <parentSk>#<index> with index a number
// (createSubTask's position of its input, from 0); no version suffix.
//
// Session (core's SessionService, read-your-writes): pk <userId>#<tenant>,
// sk <module>#<itemId> (the command module's table name option and the
// item's id, itself pk#sk), a version Number of at least 1 and a ttl.

// taskPrefixes are the partition key prefixes of task rows.
var taskPrefixes = []string{"TASK", "SFN_TASK"}

// task checks a tasks row (B11) and B1 on its sort key.
func (c *checker) task() {
	pk, sk := c.w.Key.PK, c.w.Key.SK
	prefix, _, _ := strings.Cut(pk, KeySeparator)
	ok := false
	for _, p := range taskPrefixes {
		ok = ok || prefix == p
	}
	if !ok {
		c.add("B11", msgTaskPK, pk)
	}
	if !twoSegments(sk) {
		c.add("B11", msgTaskSK, sk)
	} else if segs := strings.Split(sk, KeySeparator); len(segs) > 2 && !decimal(segs[len(segs)-1]) {
		c.add("B11", msgTaskSubIndex, sk)
	}
	c.plainSK()
}

// decimal reports whether s is a run of ASCII digits: a sub-task's
// index, which TaskService.createSubTask writes as the position of its
// input in the parent's (mbc-cqrs-serverless packages/task
// task.service.ts: sk `${parentSk}#${index}`, index from 0).
func decimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// session checks a session row (B11).
func (c *checker) session() {
	sk := c.w.Key.SK
	if !twoSegments(sk) {
		c.add("B11", msgSessionSK, sk)
	}
	switch v, ok := c.w.New["version"]; {
	case !ok || v.Kind() != storage.KindN:
		c.add("B11", msgSessionVersion)
	default:
		if _, err := parseVersion(v.Str()); err != nil {
			c.add("B11", msgSessionVersion)
		}
	}
	if _, ok := c.w.New["ttl"]; !ok {
		c.add("B11", msgSessionTTL)
	}
}

// twoSegments reports whether s is <a>#<b...> with a and b non-empty.
func twoSegments(s string) bool {
	a, b, ok := strings.Cut(s, KeySeparator)
	return ok && a != "" && b != ""
}
