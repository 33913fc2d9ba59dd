package nacosapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// loginAnswer is the body of POST /v1/auth/login.
type loginAnswer struct {
	AccessToken string `json:"accessToken"`
	TokenTTL    int64  `json:"tokenTtl"` // seconds
}

// Login signs in with Options.Username and Password and keeps the access
// token; requests sign in by themselves when needed, so calling Login only
// checks the credentials early (for a clear error at start-up).
func (c *Client) Login(ctx context.Context) error {
	_, err := c.accessToken(ctx, true)
	return err
}

// accessToken returns the token to send, signing in when there is none,
// when it is due for renewal, or when force is set.
func (c *Client) accessToken(ctx context.Context, force bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !force && c.token != "" && time.Now().Before(c.renewAt) {
		return c.token, nil
	}
	form := url.Values{"username": {c.opts.Username}, "password": {c.opts.Password}}
	status, body, _, err := c.send(ctx, http.MethodPost, "/v1/auth/login", nil, form, nil, c.opts.Timeout)
	if err != nil {
		return "", fmt.Errorf("signing in to %s as %s: %w", c.base, c.opts.Username, err)
	}
	if status != http.StatusOK {
		return "", fmt.Errorf("signing in to %s as %s: %w", c.base, c.opts.Username, statusError(status, body))
	}
	var a loginAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil || a.AccessToken == "" {
		return "", fmt.Errorf("signing in to %s as %s: no access token in %q", c.base, c.opts.Username, body)
	}
	ttl := time.Duration(a.TokenTTL) * time.Second
	if ttl <= 0 {
		ttl = defaultTTL
	}
	// Renew when nine tenths of the lifetime have passed, so a request
	// never carries a token about to expire.
	c.token, c.renewAt = a.AccessToken, time.Now().Add(ttl*9/10)
	return c.token, nil
}

// defaultTTL is Nacos's default token lifetime, assumed when the login
// answer gives none.
const defaultTTL = 5 * time.Hour
