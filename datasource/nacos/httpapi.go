package nacos

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nacos-group/nacos-sdk-go/v2/common/constant"
)

// httpAPI reads dataIds through Nacos's HTTP API (/v1/cs/configs), signing
// in when the source has a username. The watch's probe, and its check that
// Nacos answers again after an outage, go this way rather than through the
// SDK: the SDK's requests made while it cannot connect wait for its
// reconnection and race with it, and a failed one may start another.
type httpAPI struct {
	http  *http.Client
	bases []string // "http://host:port/nacos", one per server
	cfg   Config

	mu sync.Mutex
	// tokens are the access tokens of each base, with when they expire.
	tokens map[string]token
}

type token struct {
	value string
	until time.Time
}

// errSignIn marks a refused sign-in: a wrong username or password.
var errSignIn = errors.New("sign-in refused")

func newHTTPAPI(cfg Config, servers []constant.ServerConfig) *httpAPI {
	a := &httpAPI{http: &http.Client{Timeout: cfg.Timeout}, cfg: cfg, tokens: map[string]token{}}
	for _, sc := range servers {
		a.bases = append(a.bases, sc.Scheme+"://"+hostPort(sc)+sc.ContextPath)
	}
	return a
}

func hostPort(sc constant.ServerConfig) string {
	host := sc.IpAddr
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.FormatUint(sc.Port, 10)
}

// read returns dataID's content from the first server that answers; ""
// when it does not exist.
func (a *httpAPI) read(ctx context.Context, dataID string) (string, error) {
	var first error
	for _, base := range a.bases {
		c, err := a.readFrom(ctx, base, dataID)
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return "", first
}

func (a *httpAPI) readFrom(ctx context.Context, base, dataID string) (string, error) {
	for attempt := 0; ; attempt++ {
		q := url.Values{"dataId": {dataID}, "group": {a.cfg.Group}}
		if a.cfg.Namespace != "" {
			q.Set("tenant", a.cfg.Namespace)
		}
		if a.cfg.Username != "" {
			tok, err := a.token(ctx, base, attempt > 0)
			if err != nil {
				return "", err
			}
			q.Set("accessToken", tok)
		}
		status, body, err := a.do(ctx, http.MethodGet, base+"/v1/cs/configs?"+q.Encode(), nil)
		switch {
		case err != nil:
			return "", err
		case status == http.StatusOK:
			return body, nil
		case status == http.StatusNotFound:
			return "", nil
		case status == http.StatusForbidden && a.cfg.Username != "" && attempt == 0:
			continue // the token expired early: sign in again
		}
		return "", fmt.Errorf("GET %s/v1/cs/configs: HTTP %d: %s", base, status, brief(body))
	}
}

// token returns an access token for base, signing in when there is none
// valid (or fresh is set).
func (a *httpAPI) token(ctx context.Context, base string, fresh bool) (string, error) {
	a.mu.Lock()
	t, ok := a.tokens[base]
	a.mu.Unlock()
	if ok && !fresh && time.Now().Before(t.until) {
		return t.value, nil
	}
	t, err := a.signIn(ctx, base)
	if err != nil {
		return "", err
	}
	a.mu.Lock()
	a.tokens[base] = t
	a.mu.Unlock()
	return t.value, nil
}

// signIn asks base for an access token with the source's username and
// password. A refusal wraps errSignIn and names the user and the server.
func (a *httpAPI) signIn(ctx context.Context, base string) (token, error) {
	form := url.Values{"username": {a.cfg.Username}, "password": {a.cfg.Password}}
	status, body, err := a.do(ctx, http.MethodPost, base+"/v1/auth/login", strings.NewReader(form.Encode()))
	if err != nil {
		return token{}, fmt.Errorf("signing in to %s as user %q: %w", base, a.cfg.Username, err)
	}
	// Nacos answers a wrong password with 403 and an unknown user with 500
	// "User ... not found".
	if status == http.StatusForbidden || status == http.StatusUnauthorized ||
		(status == http.StatusInternalServerError && strings.Contains(body, "not found")) {
		return token{}, fmt.Errorf("signing in to %s as user %q: %w: wrong username or password (HTTP %d: %s)",
			base, a.cfg.Username, errSignIn, status, brief(body))
	}
	var resp struct {
		AccessToken string `json:"accessToken"`
		TokenTTL    int64  `json:"tokenTtl"`
	}
	if status != http.StatusOK || json.Unmarshal([]byte(body), &resp) != nil || resp.AccessToken == "" {
		return token{}, fmt.Errorf("signing in to %s as user %q: HTTP %d: %s", base, a.cfg.Username, status, brief(body))
	}
	// Sign in again a little before the token expires.
	ttl := max(time.Duration(resp.TokenTTL)*time.Second*9/10, time.Second)
	return token{value: resp.AccessToken, until: time.Now().Add(ttl)}, nil
}

// signInAll signs in to every server, returning the first refusal (an
// error wrapping errSignIn) by a server that enforces auth. A server that
// does not answer is no refusal; nor is one with auth off, which reads
// dataID without a token (Nacos refuses the sign-in of a user it does not
// have even then, and the SDK reads on regardless).
func (a *httpAPI) signInAll(ctx context.Context, dataID string) error {
	for _, base := range a.bases {
		_, err := a.token(ctx, base, true)
		if !errors.Is(err, errSignIn) {
			continue
		}
		q := url.Values{"dataId": {dataID}, "group": {a.cfg.Group}}
		if a.cfg.Namespace != "" {
			q.Set("tenant", a.cfg.Namespace)
		}
		status, _, rerr := a.do(ctx, http.MethodGet, base+"/v1/cs/configs?"+q.Encode(), nil)
		if rerr == nil && (status == http.StatusOK || status == http.StatusNotFound) {
			a.cfg.Logger.Warn("nacos refused the sign-in but has auth off; reading without it",
				"server", base, "user", a.cfg.Username, "error", err.Error())
			continue
		}
		return err
	}
	return nil
}

func (a *httpAPI) do(ctx context.Context, method, u string, body io.Reader) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return 0, "", err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxContent))
	return resp.StatusCode, string(b), err
}

// maxContent bounds what a read takes from Nacos: far above any rule
// document (Nacos itself refuses content over 100 KiB by default).
const maxContent = 10 << 20

// brief is body cut for an error message.
func brief(body string) string {
	body = strings.TrimSpace(body)
	if len(body) > 200 {
		return body[:200] + "..."
	}
	return body
}
