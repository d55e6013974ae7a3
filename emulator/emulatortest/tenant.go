package emulatortest

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// TenantHeader is the request header that names the caller's tenant for the
// emulator's conventions tenant guard (the framework's x-tenant-code).
const TenantHeader = "x-tenant-code"

// WithTenant is a dynamodb client option that sends tenant in the
// x-tenant-code header of every request, binding the client to it: on
// tables that follow the conventions the emulator then refuses keys of
// other tenants (common tenants excepted) and Scans. It works with any
// client of an emulator, in process or over HTTP.
func WithTenant(tenant string) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, smithyhttp.SetHeaderValue(TenantHeader, tenant))
	}
}

// TenantClient is Client bound to tenant (see WithTenant).
func TenantClient(t testing.TB, e *emulator.Emulator, accessKey, tenant string) *dynamodb.Client {
	t.Helper()
	return dynamodb.New(Client(t, e, accessKey).Options(), WithTenant(tenant))
}
