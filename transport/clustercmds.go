package transport

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// registerCluster installs the cluster commands of Config.Cluster, as
// Sentinel's cluster modules name them. The ones that change the mode or a
// setting are controls: the dashboard sends setClusterMode and
// modifyTransportConfig over GET, so they are served over GET and POST,
// from callers Config.WriteClients allows, and never to a browser page of
// another site.
func (s *Server) registerCluster(add func(string, string, func(url.Values) (int, string)), addControl func(string, string, func(*http.Request) (int, string))) {
	c := s.cfg.Cluster
	addControl("setClusterMode", "set cluster mode, accept param: mode={0|1} 0:client mode 1:server mode", func(r *http.Request) (int, string) {
		mode, err := strconv.Atoi(r.Form.Get("mode"))
		if err != nil || (mode != ClusterModeClient && mode != ClusterModeServer) {
			return fail("invalid parameter: mode must be 0 (client) or 1 (server)")
		}
		return done(c.SetMode(mode))
	})
	add("cluster/client/fetchConfig", "get cluster client config", func(url.Values) (int, string) {
		return okJSON(c.ClientConfig())
	})
	addControl("cluster/client/modifyConfig", "modify cluster client config", func(r *http.Request) (int, string) {
		var cfg ClusterClientConfig
		if err := decodeData(r, &cfg); err != nil {
			return fail(err.Error())
		}
		return done(c.SetClientConfig(cfg))
	})
	add("cluster/server/fetchConfig", "get cluster server config", func(q url.Values) (int, string) {
		cfg := c.ServerConfig()
		if q.Get("namespace") != "" {
			return okJSON(map[string]any{"flow": cfg.Flow})
		}
		return okJSON(cfg)
	})
	add("cluster/server/info", "get cluster server info", func(url.Values) (int, string) {
		return okJSON(c.ServerInfo())
	})
	addControl("cluster/server/modifyTransportConfig", "modify cluster server transport config", func(r *http.Request) (int, string) {
		port, err1 := strconv.Atoi(r.Form.Get("port"))
		idle, err2 := strconv.Atoi(r.Form.Get("idleSeconds"))
		if err1 != nil || err2 != nil {
			return fail("invalid parameter: port and idleSeconds must be numbers")
		}
		return done(c.SetServerTransport(port, idle))
	})
	addControl("cluster/server/modifyNamespaceSet", "modify server namespace set", func(r *http.Request) (int, string) {
		var set []string
		if err := decodeData(r, &set); err != nil {
			return fail(err.Error())
		}
		return done(c.SetServerNamespaces(set))
	})
	addControl("cluster/server/modifyFlowConfig", "modify cluster server flow config", func(r *http.Request) (int, string) {
		if ns := r.Form.Get("namespace"); ns != "" {
			return fail("a flow config per namespace is not supported: the token server has one for every namespace (omit namespace)")
		}
		var cfg ClusterFlowConfig
		if err := decodeData(r, &cfg); err != nil {
			return fail(err.Error())
		}
		return done(c.SetServerFlow(cfg))
	})
	add("cluster/server/metricList", "get cluster server metrics", func(q url.Values) (int, string) {
		ns := q.Get("namespace")
		if ns == "" {
			return fail("empty namespace")
		}
		byResource := map[string][]ClusterFlowMetric{}
		for _, m := range c.ServerMetrics(ns) {
			byResource[m.ResourceName] = append(byResource[m.ResourceName], m)
		}
		return okJSON(byResource)
	})
}

// decodeData reads the JSON of the data parameter into v.
func decodeData(r *http.Request, v any) error {
	data := strings.TrimSpace(r.Form.Get("data"))
	if data == "" {
		return fmt.Errorf("empty data")
	}
	if err := json.Unmarshal([]byte(data), v); err != nil {
		return fmt.Errorf("invalid data: %v", err)
	}
	return nil
}

// done answers a change: "success", which the dashboard requires, or the
// error.
func done(err error) (int, string) {
	if err != nil {
		return fail(err.Error())
	}
	return ok("success")
}

// crossSite reports whether a browser says r comes from a page of another
// site (Sec-Fetch-Site), which no dashboard request carries.
func crossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
		return false
	}
	return true
}
