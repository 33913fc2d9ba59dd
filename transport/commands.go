package transport

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// command is one command handler: params are the query and, for a POST, the
// form body; it answers a status and a body. A command that changes state
// has push instead of run: it is served over POST only, to the callers
// Config.WriteClients allows, and is given the request (its caller, its
// context).
type command struct {
	desc string
	run  func(params url.Values) (status int, body string)
	push func(r *http.Request) (status int, body string)
	// control changes a setting over GET or POST (see registerCluster).
	control func(r *http.Request) (status int, body string)
}

// register installs the commands, in the order api lists them.
func (s *Server) register() {
	s.commands = map[string]command{}
	add := func(name, desc string, run func(url.Values) (int, string)) {
		s.commands[name] = command{desc: desc, run: run}
		s.names = append(s.names, name)
	}
	addPush := func(name, desc string, push func(*http.Request) (int, string)) {
		s.commands[name] = command{desc: desc, push: push}
		s.names = append(s.names, name)
	}
	add("api", "get all available command handlers", s.cmdAPI)
	add("version", "get sentinel version", func(url.Values) (int, string) { return ok(Version) })
	add("metric", "get and aggregate metrics, accept param: startTime={startTime}&endTime={endTime}&maxLines={maxLines}&identify={resourceName}", s.cmdMetric)
	add("clusterNode", "get all clusterNode VO, use type=notZero to ignore those nodes with totalRequest <=0", s.cmdClusterNode)
	add("jsonTree", "get tree node VO start from root node", s.cmdJSONTree)
	add("getRules", "get all active rules by type, request param: type={ruleType}", s.cmdGetRules)
	addPush("setRules", "modify the rules, accept param: type={ruleType}&data={ruleJson}", s.cmdSetRules)
	add("getParamFlowRules", "Get all parameter flow rules", s.cmdGetParamFlowRules)
	addPush("setParamFlowRules", "Set parameter flow rules, while previous rules will be replaced.", s.cmdSetParamFlowRules)
	add("getClusterMode", "get cluster mode status", s.cmdGetClusterMode)
	if s.cfg.Cluster != nil {
		addControl := func(name, desc string, control func(*http.Request) (int, string)) {
			s.commands[name] = command{desc: desc, control: control}
			s.names = append(s.names, name)
		}
		s.registerCluster(add, addControl)
	}
	if isGateway(s.cfg.AppType) {
		s.registerGateway(add, addPush)
	}
}

// ServeHTTP answers one command as Sentinel's simple-http command center
// does: the path without its leading '/' names the command; an unknown
// command is a 400 "Unknown command `name`", which the dashboard shows as
// unsupported. Before that it refuses, with 403 and the reason, a request
// whose Host is not a name of this machine or whose Origin is another
// site (a browser page's request: DNS rebinding, cross-site forms); and a
// command that changes state over any method but POST (405) or from a
// caller Config.WriteClients does not allow (403).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	c, found := s.commands[name]
	if why := s.foreignRequest(r); why != "" {
		if found && c.push != nil {
			s.refused(r, name, why)
		}
		reply(w, http.StatusForbidden, why)
		return
	}
	if r.Method == http.MethodPost {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/x-www-form-urlencoded" {
				reply(w, http.StatusUnsupportedMediaType, "Only form-encoded post request is supported")
				return
			}
		}
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	// One decode of the form: the dashboard encodes rule JSON once (Java's
	// handlers decode data a second time, which corrupts '+' and '%').
	if err := r.ParseForm(); err != nil {
		status := http.StatusBadRequest
		if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
			status = http.StatusRequestEntityTooLarge
		}
		reply(w, status, "Invalid request: "+err.Error())
		return
	}
	busy(r) // the request is read: its connection is no longer a slow one
	if name == "" {
		reply(w, http.StatusBadRequest, "Invalid command")
		return
	}
	if !found {
		reply(w, http.StatusBadRequest, "Unknown command `"+name+"`")
		return
	}
	if c.control != nil {
		if !s.writeAllowed(r) || crossSite(r) {
			why := "`" + name + "` from " + r.RemoteAddr + " refused: the caller is not in the command center's write allow-list (Config.WriteClients), or is a page of another site"
			s.cfg.Logger.Warn("cluster command refused", "command", name, "client", r.RemoteAddr, "reason", why)
			reply(w, http.StatusForbidden, why)
			return
		}
		status, body := c.control(r)
		s.cfg.Logger.Info("cluster command", "command", name, "client", r.RemoteAddr, "status", status, "answer", body)
		reply(w, status, body)
		return
	}
	if c.push == nil {
		status, body := c.run(r.Form)
		reply(w, status, body)
		return
	}
	if r.Method != http.MethodPost {
		why := "`" + name + "` changes the rules and is served over POST only (the dashboard posts a form); " + r.Method + " is refused"
		s.refused(r, pushKindOf(name, r), why)
		w.Header().Set("Allow", http.MethodPost)
		reply(w, http.StatusMethodNotAllowed, why)
		return
	}
	if !s.writeAllowed(r) {
		why := "`" + name + "` from " + r.RemoteAddr + " refused: the caller is not in the command center's write allow-list (Config.WriteClients)"
		s.refused(r, pushKindOf(name, r), why)
		reply(w, http.StatusForbidden, why)
		return
	}
	status, body := c.push(r)
	reply(w, status, body)
}

// reply writes a plain-text answer. Java's command center sends no
// Content-Type (the dashboard then reads UTF-8); naming it changes nothing
// for the dashboard and helps browsers.
func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func ok(body string) (int, string) { return http.StatusOK, body }

func fail(msg string) (int, string) { return http.StatusBadRequest, msg }

// okJSON answers v as JSON (object keys sorted, as fastjson writes them).
func okJSON(v any) (int, string) {
	b, err := json.Marshal(v)
	if err != nil {
		return http.StatusInternalServerError, "encoding the answer: " + err.Error()
	}
	return ok(string(b))
}

// cmdAPI lists the commands as Java's api command does.
func (s *Server) cmdAPI(url.Values) (int, string) {
	type api struct {
		URL  string `json:"url"`
		Desc string `json:"desc"`
	}
	out := make([]api, 0, len(s.names))
	for _, n := range s.names {
		out = append(out, api{"/" + n, s.commands[n].desc})
	}
	return okJSON(out)
}
