package gateway

import (
	"net"
	"net/http"
	"regexp"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// compiledRule is one rule as requests read it.
type compiledRule struct {
	rule FlowRule
	re   *regexp.Regexp // the parameter pattern under MatchRegex
}

func compileRule(r FlowRule) compiledRule {
	c := compiledRule{rule: r}
	if p := r.ParamItem; p != nil && p.Pattern != "" && p.MatchStrategy == MatchRegex {
		c.re = regexp.MustCompile(`^(?:` + p.Pattern + `)$`) // validated by Load
	}
	return c
}

// arg is the rule's argument for a request that entered the rule's
// resource as mode: the zero ParamArg (no check) when the rule is for the
// other mode, "$D" without a parameter item, the attribute's value (the
// zero ParamArg when the request lacks it, so the rule passes, as Java's
// null), or "$NM" when a pattern does not match it.
func (c compiledRule) arg(r *http.Request, mode ResourceMode) runtime.ParamArg {
	if c.rule.ResourceMode != mode {
		return runtime.ParamArg{}
	}
	p := c.rule.ParamItem
	if p == nil {
		return runtime.StringArg(defaultKey)
	}
	v, ok := attribute(r, p)
	if !ok {
		return runtime.ParamArg{}
	}
	if p.Pattern != "" && !c.matches(v) {
		return runtime.StringArg(notMatchedKey)
	}
	return runtime.StringArg(v)
}

func (c compiledRule) matches(v string) bool {
	p := c.rule.ParamItem
	switch p.MatchStrategy {
	case MatchPrefix:
		return strings.HasPrefix(v, p.Pattern)
	case MatchRegex:
		return c.re.MatchString(v)
	case MatchContains:
		return strings.Contains(v, p.Pattern)
	default:
		return v == p.Pattern
	}
}

// attribute reads the request attribute p names: the connection's peer
// address (not X-Forwarded-For, as Sentinel), the Host, or the first value
// of a header, URL parameter or cookie.
func attribute(r *http.Request, p *ParamItem) (string, bool) {
	switch p.ParseStrategy {
	case ParseClientIP:
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			return host, true
		}
		return r.RemoteAddr, r.RemoteAddr != ""
	case ParseHost:
		return r.Host, r.Host != ""
	case ParseHeader:
		if v := r.Header.Values(p.FieldName); len(v) != 0 {
			return v[0], true
		}
	case ParseURLParam:
		if v, ok := r.URL.Query()[p.FieldName]; ok && len(v) != 0 {
			return v[0], true
		}
	case ParseCookie:
		if c, err := r.Cookie(p.FieldName); err == nil {
			return c.Value, true
		}
	}
	return "", false
}
