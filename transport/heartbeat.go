package transport

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// heartbeatPath is the dashboard's registration endpoint.
const heartbeatPath = "/registry/machine"

// heartbeatIP is the address announced to the dashboard. The dashboard
// calls http://ip:port/... back and accepts IP literals only; an IPv6
// literal would be put in the URL unbracketed, so the address is IPv4.
func (s *Server) heartbeatIP() (string, error) {
	if ip := s.cfg.HeartbeatIP; ip != "" {
		if p := net.ParseIP(ip); p == nil || p.To4() == nil {
			return "", fmt.Errorf("transport: HeartbeatIP %q is not an IPv4 address (the dashboard calls the service back on it)", ip)
		}
		return ip, nil
	}
	host, _, _ := net.SplitHostPort(s.ln.Addr().String())
	if p := net.ParseIP(host); p != nil && p.To4() != nil && !p.IsUnspecified() {
		return p.To4().String(), nil
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.To4().String(), nil
		}
	}
	return "127.0.0.1", nil
}

// heartbeatForm is the form a heartbeat posts, field for field Java's
// HeartbeatMessage.
func (s *Server) heartbeatForm(ip string, now time.Time) url.Values {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return url.Values{
		"app":      {s.cfg.App},
		"app_type": {strconv.Itoa(s.cfg.AppType)},
		"hostname": {s.cfg.Hostname},
		"ip":       {ip},
		"port":     {port},
		"v":        {Version},
		"version":  {strconv.FormatInt(now.UnixMilli(), 10)},
	}
}

// heartbeats posts a heartbeat at once and then every interval until Close.
// Failures are logged when the state changes, not on every beat.
func (s *Server) heartbeats(ip string) {
	defer close(s.beatDone)
	client := &http.Client{Timeout: 3 * time.Second}
	target := "http://" + s.cfg.Dashboard + heartbeatPath
	t := time.NewTicker(s.cfg.HeartbeatInterval)
	defer t.Stop()
	failing := false
	for {
		err := s.beat(client, target, ip)
		switch {
		case err != nil && !failing:
			s.log.Warn("sentinel transport: heartbeat to the dashboard failed; retrying every interval", "dashboard", s.cfg.Dashboard, "error", err)
		case err == nil && failing:
			s.log.Info("sentinel transport: heartbeats reach the dashboard again", "dashboard", s.cfg.Dashboard)
		}
		failing = err != nil
		select {
		case <-s.stopBeat:
			return
		case <-t.C:
		}
	}
}

func (s *Server) beat(client *http.Client, target, ip string) error {
	body := s.heartbeatForm(ip, time.Now()).Encode()
	req, err := http.NewRequest(http.MethodPost, target, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("dashboard answered %s: %s", resp.Status, strings.TrimSpace(string(answer)))
	}
	return nil
}
