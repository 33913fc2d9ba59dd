package runtime

import (
	"strconv"
	"sync/atomic"
)

// TokenStatus is a token service's answer to one request. Values are
// Sentinel's (TokenResultStatus), so they can cross the wire unchanged.
type TokenStatus int32

const (
	// TokenBadRequest: the request was malformed (e.g. a rule without a
	// FlowID). The runtime treats it as TokenFail.
	TokenBadRequest TokenStatus = -4
	// TokenTooManyRequest: the service shed the request to protect itself.
	// The runtime treats it as TokenFail.
	TokenTooManyRequest TokenStatus = -2
	// TokenFail: the service could not decide (unreachable, too slow, not
	// started). The runtime falls back to the local rule or passes the call,
	// as ClusterConfig.FallbackToLocalWhenFail says.
	TokenFail TokenStatus = -1
	// TokenOK: the call may pass.
	TokenOK TokenStatus = 0
	// TokenBlocked: the cluster budget is spent; the call is blocked.
	TokenBlocked TokenStatus = 1
	// TokenShouldWait: the call may pass after waiting WaitMs (a prioritized
	// call given a token of a coming window).
	TokenShouldWait TokenStatus = 2
	// TokenNoRuleExists: the service knows no rule for the FlowID. The
	// runtime treats it as TokenFail.
	TokenNoRuleExists TokenStatus = 3
)

// String returns the status name, e.g. "ok" or "blocked".
func (s TokenStatus) String() string {
	switch s {
	case TokenBadRequest:
		return "bad request"
	case TokenTooManyRequest:
		return "too many requests"
	case TokenFail:
		return "fail"
	case TokenOK:
		return "ok"
	case TokenBlocked:
		return "blocked"
	case TokenShouldWait:
		return "should wait"
	case TokenNoRuleExists:
		return "no rule exists"
	}
	return "TokenStatus(" + strconv.Itoa(int(s)) + ")"
}

// TokenResult is a token service's answer: a status and, for
// TokenShouldWait, how long the call must wait before it passes.
type TokenResult struct {
	Status TokenStatus
	WaitMs int64
}

// TokenService decides flow rules in cluster mode: it holds the budget that
// every instance sharing a ClusterConfig.FlowID draws from. Install one with
// SetTokenService; cluster/redis provides one backed by Redis.
//
// The runtime calls RequestToken on the hot path of every call guarded by a
// cluster-mode rule, so an implementation must:
//   - never block the caller longer than its own timeout (tens of
//     milliseconds): when the backing store is slow or down it returns
//     TokenFail in time, and the runtime then applies the rule locally (or
//     passes the call) — a sick token service must not make the service it
//     protects sick;
//   - not allocate when it can answer from local state (the common case);
//   - be safe for concurrent use.
//
// rule is the runtime's copy of the rule in force, with defaults filled in
// (StatIntervalMs set; ClusterConfig.WindowIntervalMs may be 0, meaning
// DefaultStatIntervalMs). It is read-only and only valid during the call;
// identify the budget by rule.ClusterConfig.FlowID. acquire is the number of
// tokens the call takes (at least 1); prioritized is true for calls entered
// with Prioritized, which a service may answer with TokenShouldWait.
type TokenService interface {
	RequestToken(rule *FlowRule, acquire int64, prioritized bool) TokenResult
}

// tokenServiceBox lets an interface value be swapped atomically.
type tokenServiceBox struct{ s TokenService }

var activeTokenService atomic.Pointer[tokenServiceBox]

// SetTokenService installs s as the token service of every cluster-mode flow
// rule and returns the one it replaces (nil if none). nil uninstalls: while
// no service is installed, cluster-mode rules behave as if the service had
// answered TokenFail.
func SetTokenService(s TokenService) (previous TokenService) {
	var box *tokenServiceBox
	if s != nil {
		box = &tokenServiceBox{s: s}
	}
	if old := activeTokenService.Swap(box); old != nil {
		return old.s
	}
	return nil
}

// ParamTokenService is a TokenService that also decides hot-parameter rules
// in cluster mode (ParamFlowRule.ClusterMode): the token server keeps the
// per-value budget of every instance sharing ClusterConfig.FlowID. The
// runtime asks it when the installed TokenService implements it; an OK
// passes the rule, BLOCKED blocks the call, and any other answer (or a
// service without this method) applies the rule locally, as
// FallbackToLocalWhenFail, which such rules must set, asks. The same duties
// as RequestToken's hold: answer within the service's own timeout, do not
// allocate when avoidable, be safe for concurrent use.
//
// arg is the call's argument at the rule's index: one value, or the
// elements of a slice (Len and Value read them). It is passed by value so
// that the caller's arguments stay on its stack; it and rule are only
// valid during the call.
type ParamTokenService interface {
	RequestParamToken(rule *ParamFlowRule, acquire int64, arg ParamArg) TokenResult
}
