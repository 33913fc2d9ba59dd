package runtime

import "time"

// The cluster part of the flow and param-flow checks: a rule in cluster
// mode asks the installed TokenService before, or instead of, its local
// check.

// askCluster decides a call of a cluster-mode rule through the token
// service. decided is false when the service failed and the rule falls back
// to the local check; the fallback-or-pass choice is Sentinel's
// fallbackToLocalOrPass.
func (f *flowCheck) askCluster(acquire int64, prioritized bool) (v verdict, decided bool) {
	res := TokenResult{Status: TokenFail}
	if box := activeTokenService.Load(); box != nil {
		res = box.s.RequestToken(&f.rule, acquire, prioritized)
	}
	switch res.Status {
	case TokenOK:
		return verdictPass, true
	case TokenBlocked:
		return verdictBlock, true
	case TokenShouldWait:
		if res.WaitMs > 0 {
			sleep(time.Duration(res.WaitMs) * time.Millisecond)
		}
		return verdictWaited, true
	}
	if f.rule.ClusterConfig.FallbackToLocalWhenFail {
		return verdictPass, false
	}
	return verdictPass, true
}

// askParamCluster asks the installed token service for a param rule's
// tokens: TokenFail when none is installed or it cannot decide param
// rules.
func askParamCluster(rule *ParamFlowRule, acquire int64, arg *ParamArg) TokenStatus {
	box := activeTokenService.Load()
	if box == nil {
		return TokenFail
	}
	svc, ok := box.s.(ParamTokenService)
	if !ok {
		return TokenFail
	}
	return svc.RequestParamToken(rule, acquire, *arg).Status
}
