package emulator

// The conventions layer at the edge: the caller's tenant header, which the
// conventions stage's tenant guard reads, and the report of violations over HTTP
// (GET and DELETE adminpath.Conventions) and in Go.

// headerTenantCode names the caller's tenant, as the framework's
// x-tenant-code request header does.
const headerTenantCode = "X-Tenant-Code"
