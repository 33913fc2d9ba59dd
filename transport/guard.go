package transport

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// The command center's checks on who may ask what. Sentinel's protocol
// has no authentication and the unmodified dashboard cannot send any, so
// the checks are those a dashboard passes without knowing of them: it
// calls the address the heartbeat announced (a Host of this machine), it
// sends no Origin (it is not a browser), it posts the commands that change
// state, and it calls from its own address.

// guard holds what Start resolved once for the checks.
type guard struct {
	hosts   map[string]bool // Host names (lower case, no port) of this machine besides loopback
	writers []netip.Prefix  // client addresses allowed to send commands that change state
}

// newGuard resolves the names and addresses the checks accept.
func (s *Server) newGuard(heartbeatIP string) guard {
	g := guard{hosts: map[string]bool{}}
	addHost := func(h string) {
		if h = strings.ToLower(strings.Trim(h, "[]")); h != "" {
			g.hosts[h] = true
		}
	}
	if host, _, err := net.SplitHostPort(s.cfg.Listen); err == nil {
		addHost(host)
	}
	addHost(heartbeatIP)
	addHost(s.cfg.HeartbeatIP)
	addHost(s.cfg.Hostname)
	for _, h := range s.cfg.AllowedHosts {
		addHost(h)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				addHost(p.Addr().Unmap().WithZone("").String())
			}
		}
	}
	if s.cfg.WriteClients != nil {
		for _, c := range s.cfg.WriteClients {
			g.writers = append(g.writers, s.clientPrefixes(c)...)
		}
		return g
	}
	g.writers = append(g.writers, netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128"))
	if s.cfg.Dashboard != "" {
		host, _, err := net.SplitHostPort(s.cfg.Dashboard)
		if err != nil {
			host = s.cfg.Dashboard
		}
		g.writers = append(g.writers, s.clientPrefixes(host)...)
	}
	return g
}

// clientPrefixes reads one entry of an allow-list: an address, a CIDR
// prefix or a host name (resolved now). An entry that reads as none is
// logged and allows nothing.
func (s *Server) clientPrefixes(entry string) []netip.Prefix {
	entry = strings.Trim(strings.TrimSpace(entry), "[]")
	if p, err := netip.ParsePrefix(entry); err == nil {
		return []netip.Prefix{p.Masked()}
	}
	if a, err := netip.ParseAddr(entry); err == nil {
		a = a.Unmap().WithZone("")
		return []netip.Prefix{netip.PrefixFrom(a, a.BitLen())}
	}
	ips, err := net.LookupIP(entry)
	if err != nil || len(ips) == 0 {
		s.log.Warn("sentinel transport: a write allow-list entry names no address; it allows nothing", "entry", entry, "error", err)
		return nil
	}
	var out []netip.Prefix
	for _, ip := range ips {
		if a, ok := netip.AddrFromSlice(ip); ok {
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}

// foreignRequest says why r is refused whatever its command, or "" when
// it is not: a Host that is not a name of this machine (a page whose own
// name was rebound to this machine's address reads and writes as if it
// were this machine), or an Origin other than the Host itself (a page of
// another site, sending a form or a fetch). Requests without Origin are
// not from a page's script or form of another site: browsers send Origin
// with every cross-origin fetch and every POST.
func (s *Server) foreignRequest(r *http.Request) string {
	if r.Host != "" && !s.ownHost(r.Host) {
		return "Host " + r.Host + " refused: the command center answers only requests addressed to this machine (its listen address, a loopback name, its own addresses or Config.AllowedHosts)"
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return "Origin " + o + " refused: the command center does not answer pages of other sites"
		}
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return "a cross-site request (Sec-Fetch-Site) refused: the command center does not answer pages of other sites"
	}
	return ""
}

// ownHost says whether the Host header hostport names this machine.
func (s *Server) ownHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Unmap().IsLoopback() {
		return true
	}
	return s.guard.hosts[host]
}

// writeAllowed says whether r's caller may send a command that changes
// state.
func (s *Server) writeAllowed(r *http.Request) bool {
	a, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := a.Addr().Unmap().WithZone("")
	for _, p := range s.guard.writers {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// pushKindOf is the kind of rules the write command name asks to change,
// for the log and the refusals.
func pushKindOf(name string, r *http.Request) string {
	switch name {
	case "setRules":
		if t := r.Form.Get("type"); t != "" {
			return strings.ToLower(t)
		}
	case "setParamFlowRules":
		return "paramFlow"
	}
	return name
}
