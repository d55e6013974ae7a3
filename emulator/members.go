package emulator

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// UnknownMember reports the first member of body, a request of the
// DynamoDB or DynamoDB Streams operation op ("PutItem"), that the
// operation's request does not take: where it is
// ("TransactItems[0].Put.ConditionExpresion") and, sorted, the members
// taken there. DynamoDB skips such a member, as the emulator does; an
// SDK's typed request cannot send one. A caller that builds requests from
// loose JSON (the MCP server's tools) asks first, so that a misspelt
// member is an error rather than a request that does something else.
func UnknownMember(op string, body []byte) (path string, known []string, found bool) {
	return operations().UnknownMember(op, body)
}

// operations is a service with the features the emulator links and no
// namespace, made at its first use: its operation table holds the
// request types UnknownMember reads. It serves nothing.
var operations = sync.OnceValue(func() *service.Service {
	s, err := service.New(service.Config{Features: features()})
	if err != nil {
		panic(err) // New fails only on a stage's settings: it has none
	}
	return s
})
