package conventions

import (
	"fmt"
	"strings"
)

// CheckTenant is rule B10, the cross-tenant guard, for a caller whose tenant
// the emulator was told out of band (DynamoDB requests carry none): a key
// whose tenant (the last segment of pk, as getTenantCode reads it) is
// neither the caller's nor one of commonTenants (nil means [TenantCommon])
// is a violation, as is a key without a tenant. Tenants compare without
// regard to case, as the framework lower-cases the caller's (rule A12
// reports upper case keys). An empty callerTenant checks nothing.
func CheckTenant(callerTenant string, pk string, commonTenants []string) *Violation {
	if len(commonTenants) == 0 {
		commonTenants = []string{TenantCommon}
	}
	return checkTenant(callerTenant, Key{PK: pk}, commonTenants, ParseTenant)
}

func checkTenant(caller string, k Key, common []string, tenantOf func(string) (string, error)) *Violation {
	if caller == "" {
		return nil
	}
	v := &Violation{Rule: "B10", Key: k, Severity: severityOf("B10")}
	tenant, err := tenantOf(k.PK)
	if err != nil {
		v.Message = fmt.Sprintf(msgCallerNoTenant, k.PK, caller)
		return v
	}
	if strings.EqualFold(tenant, caller) {
		return nil
	}
	for _, c := range common {
		if strings.EqualFold(tenant, c) {
			return nil
		}
	}
	v.Message = fmt.Sprintf(msgCallerTenant, caller, tenant, k.PK)
	return v
}
