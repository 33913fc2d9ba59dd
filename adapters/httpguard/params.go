package httpguard

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Param is one hot-parameter argument taken from a request, for WithParams.
// Sentinel's web adapters pass no arguments, so hot-parameter rules on URL
// resources never fire there; a Param makes them fire here. A value the
// request lacks is the zero runtime.ParamArg, which no rule counts.
type Param struct {
	src  paramSource
	name string // path wildcard, query parameter, canonical header name or ParamFunc's name
	fn   func(*http.Request) runtime.ParamArg
}

// Name is the parameter's name, declared for the resource with
// runtime.WithParamNames so rules may name it instead of giving its index:
// the wildcard, query parameter or header name, "clientIP", or the name
// given to ParamFunc.
func (p Param) Name() string {
	if p.src == srcClientIP {
		return "clientIP"
	}
	return p.name
}

type paramSource uint8

const (
	srcPath paramSource = iota + 1
	srcQuery
	srcHeader
	srcClientIP
	srcFunc
)

// PathValue is the value of the pattern's wildcard {name} (Request.PathValue).
// Under Mux, which checks before the mux has matched the request, the value
// is read from the path against the matched pattern the same way.
func PathValue(name string) Param { return Param{src: srcPath, name: name} }

// Query is the first value of the URL query parameter name.
func Query(name string) Param { return Param{src: srcQuery, name: name} }

// Header is the first value of the request header name.
func Header(name string) Param {
	return Param{src: srcHeader, name: http.CanonicalHeaderKey(name)}
}

// ClientIP is the IP address of the connection's peer (Request.RemoteAddr
// without the port), as Sentinel's gateway adapters take it. Behind a proxy
// that is the proxy: use Header("X-Forwarded-For") or ParamFunc then.
func ClientIP() Param { return Param{src: srcClientIP} }

// ParamFunc is an argument called name computed by fn.
func ParamFunc(name string, fn func(r *http.Request) runtime.ParamArg) Param {
	return Param{src: srcFunc, name: name, fn: fn}
}

// arg computes the argument for r; pattern is the matched pattern's path
// when r has not been through the mux yet (Mux), "" otherwise.
func (p Param) arg(r *http.Request, muxPath string) runtime.ParamArg {
	var v string
	var ok bool
	switch p.src {
	case srcPath:
		if muxPath != "" {
			v, ok = matchPathValue(muxPath, r.URL.EscapedPath(), p.name)
		} else {
			v = r.PathValue(p.name)
			ok = v != ""
		}
	case srcQuery:
		v, ok = queryValue(r.URL.RawQuery, p.name)
	case srcHeader:
		if vs := r.Header[p.name]; len(vs) != 0 {
			v, ok = vs[0], true
		}
	case srcClientIP:
		v, ok = clientIP(r.RemoteAddr)
	case srcFunc:
		return p.fn(r)
	}
	if !ok {
		return runtime.ParamArg{}
	}
	return runtime.StringArg(v)
}

// queryValue is the first value of key in a raw query, found without
// building the url.Values map that Request.URL.Query allocates.
func queryValue(raw, key string) (string, bool) {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		k, v, _ := strings.Cut(pair, "=")
		if k != key {
			if !strings.ContainsAny(k, "%+") {
				continue
			}
			uk, err := url.QueryUnescape(k)
			if err != nil || uk != key {
				continue
			}
		}
		if !strings.ContainsAny(v, "%+") {
			return v, true
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			return uv, true
		}
		return v, true
	}
	return "", false
}

func clientIP(remoteAddr string) (string, bool) {
	if remoteAddr == "" {
		return "", false
	}
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host, true
	}
	return remoteAddr, true
}

// matchPathValue finds the value of wildcard name when the escaped path
// matches the pattern's path, segment by segment as ServeMux matches:
// "{name}" takes one segment, "{name...}" the rest, and each value is
// unescaped on its own. It is used under Mux only, where the mux has
// already said the path matches, so it does not check literal segments.
func matchPathValue(pattern, path, name string) (string, bool) {
	pattern = strings.TrimPrefix(pattern, "/")
	path = strings.TrimPrefix(path, "/")
	for pattern != "" {
		var seg string
		seg, pattern, _ = strings.Cut(pattern, "/")
		rest := path
		var val string
		val, path, _ = strings.Cut(path, "/")
		if len(seg) < 2 || seg[0] != '{' || seg[len(seg)-1] != '}' {
			continue
		}
		w := seg[1 : len(seg)-1]
		multi := strings.HasSuffix(w, "...")
		w = strings.TrimSuffix(w, "...")
		if w != name {
			continue
		}
		if multi {
			val = rest
		}
		if u, err := url.PathUnescape(val); err == nil {
			val = u
		}
		return val, true
	}
	return "", false
}
