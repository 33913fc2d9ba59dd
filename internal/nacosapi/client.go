// Package nacosapi is a small client of Nacos's HTTP Open API v1 for
// configuration: read a dataId with its MD5, publish with compare-and-swap,
// delete, long-poll for changes and sign in. It uses the standard library
// only, so the main module can read rules kept in Nacos without the Nacos
// SDK; services should use the SDK-based datasource/nacos module.
//
// A namespace is Nacos's namespace ID ("tenant" in the API); "" is the
// public namespace.
package nacosapi

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// notExist is the body of Nacos's 404 for a dataId it does not hold.
const notExist = "config data not exist"

// ErrNotFound is returned (wrapped) by Get for a dataId Nacos does not hold.
var ErrNotFound = errors.New(notExist)

// ErrConflict is returned (wrapped) by Publish when the stored content is no
// longer the one whose MD5 was given: another writer changed it first.
var ErrConflict = errors.New("compare-and-swap conflict: the stored content changed")

// Options configures a Client; the zero value works for a server without
// auth.
type Options struct {
	// Username and Password sign in (POST /v1/auth/login) when set; the
	// token is renewed before it expires.
	Username, Password string
	// Timeout bounds each request but a long poll; zero means 3 s.
	Timeout time.Duration
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
}

// Client talks to one Nacos server. It is safe for concurrent use.
type Client struct {
	base string // "http://host:port/nacos", no trailing slash
	opts Options
	http *http.Client

	mu      sync.Mutex
	token   string
	renewAt time.Time
}

// New returns a client of the server at addr: "host:port" (the HTTP port,
// context path /nacos) or a URL such as "http://host:port/nacos". It does
// not contact the server.
func New(addr string, opts Options) (*Client, error) {
	base := addr
	if !strings.Contains(addr, "://") {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return nil, fmt.Errorf("nacos server address %q: want host:port: %w", addr, err)
		}
		base = "http://" + addr + "/nacos"
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("nacos server address %q: want host:port or http://host:port/nacos", addr)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 3 * time.Second
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{base: strings.TrimSuffix(base, "/"), opts: opts, http: hc}, nil
}

// String is the server's base URL.
func (c *Client) String() string { return c.base }

// MD5 is the hex MD5 of content, as Nacos computes it for a config.
func MD5(content string) string {
	sum := md5.Sum([]byte(content))
	return hex.EncodeToString(sum[:])
}

// Get reads dataID of group in namespace and returns its content and MD5.
// A dataId Nacos does not hold is an error wrapping ErrNotFound.
func (c *Client) Get(ctx context.Context, dataID, group, namespace string) (content, md5 string, err error) {
	q := configParams(dataID, group, namespace)
	deadline := time.Now().Add(c.opts.Timeout)
	var status int
	var body string
	var header http.Header
	for {
		status, body, header, err = c.do(ctx, http.MethodGet, "/v1/cs/configs", q, nil, nil, c.opts.Timeout)
		if err != nil {
			return "", "", fmt.Errorf("reading dataId %s: %w", dataID, err)
		}
		// 409: a publish of the dataId holds it for a moment ("requested
		// file is being modified, please try later").
		if status != http.StatusConflict || time.Now().After(deadline) {
			break
		}
		t := time.NewTimer(busyWait)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", "", fmt.Errorf("reading dataId %s: %w", dataID, ctx.Err())
		case <-t.C:
		}
	}
	switch status {
	case http.StatusOK:
	case http.StatusNotFound:
		// Only Nacos's own answer means a missing dataId; another 404 is
		// a wrong address or context path.
		if strings.Contains(body, notExist) {
			return "", "", fmt.Errorf("reading dataId %s of group %s: %w", dataID, group, ErrNotFound)
		}
		return "", "", fmt.Errorf("reading dataId %s: %w (is %s a Nacos server?)", dataID, statusError(status, body), c.base)
	default:
		return "", "", fmt.Errorf("reading dataId %s: %w", dataID, statusError(status, body))
	}
	md5 = header.Get("Content-MD5")
	if md5 == "" {
		md5 = MD5(body)
	}
	return body, md5, nil
}

// Publish stores content in dataID of group in namespace. With casMD5 set,
// the store happens only if the stored content still has that MD5 (or the
// dataId does not exist yet); otherwise Publish returns an error wrapping
// ErrConflict and stores nothing. casMD5 "" publishes unconditionally.
// typ is the config's type shown by the Nacos console ("json", "text"...;
// "" leaves it unset).
func (c *Client) Publish(ctx context.Context, dataID, group, namespace, content, typ, casMD5 string) error {
	form := configParams(dataID, group, namespace)
	form.Set("content", content)
	if typ != "" {
		form.Set("type", typ)
	}
	var header http.Header
	if casMD5 != "" {
		header = http.Header{"casMd5": {casMD5}}
	}
	status, body, _, err := c.do(ctx, http.MethodPost, "/v1/cs/configs", nil, form, header, c.opts.Timeout)
	if err != nil {
		return fmt.Errorf("publishing dataId %s: %w", dataID, err)
	}
	if status == http.StatusOK && strings.TrimSpace(body) == "true" {
		return nil
	}
	if casMD5 != "" && isConflict(body) {
		return fmt.Errorf("publishing dataId %s: %w", dataID, ErrConflict)
	}
	return fmt.Errorf("publishing dataId %s: %w", dataID, statusError(status, body))
}

// isConflict says whether a refused publish's body is Nacos's CAS failure.
func isConflict(body string) bool {
	return strings.Contains(body, "Cas publish fail") || strings.Contains(body, "server md5 may have changed")
}

// Delete removes dataID of group in namespace; deleting a dataId that does
// not exist succeeds.
func (c *Client) Delete(ctx context.Context, dataID, group, namespace string) error {
	q := configParams(dataID, group, namespace)
	status, body, _, err := c.do(ctx, http.MethodDelete, "/v1/cs/configs", q, nil, nil, c.opts.Timeout)
	if err != nil {
		return fmt.Errorf("deleting dataId %s: %w", dataID, err)
	}
	if status != http.StatusOK || strings.TrimSpace(body) != "true" {
		return fmt.Errorf("deleting dataId %s: %w", dataID, statusError(status, body))
	}
	return nil
}

// configParams are the query or form values naming one config.
func configParams(dataID, group, namespace string) url.Values {
	v := url.Values{"dataId": {dataID}, "group": {group}}
	if namespace != "" {
		v.Set("tenant", namespace)
	}
	return v
}

// statusError describes a response Nacos refused with.
func statusError(status int, body string) error {
	body = strings.TrimSpace(body)
	if len(body) > 300 {
		body = body[:300] + "..."
	}
	return fmt.Errorf("nacos answered %d %s: %s", status, http.StatusText(status), body)
}

// do sends one request, signed with the access token when the client signs
// in, and returns the status, body and header. A request refused with 403
// while signed in signs in again and is sent once more, as the token may
// have been revoked or have expired early.
func (c *Client) do(ctx context.Context, method, path string, query, form url.Values, header http.Header, timeout time.Duration) (int, string, http.Header, error) {
	for attempt := 0; ; attempt++ {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		if c.opts.Username != "" {
			tok, err := c.accessToken(ctx, attempt > 0)
			if err != nil {
				return 0, "", nil, err
			}
			q.Set("accessToken", tok)
		}
		status, body, h, err := c.send(ctx, method, path, q, form, header, timeout)
		if err == nil && status == http.StatusForbidden && c.opts.Username != "" && attempt == 0 {
			continue
		}
		return status, body, h, err
	}
}

// send makes one HTTP request bounded by timeout.
func (c *Client) send(ctx context.Context, method, path string, query, form url.Values, header http.Header, timeout time.Duration) (int, string, http.Header, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return 0, "", nil, err
	}
	for k, v := range header {
		req.Header[k] = v // Nacos reads casMd5 and Long-Pulling-Timeout as spelt
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, "", nil, err
	}
	return resp.StatusCode, string(b), resp.Header, nil
}

// busyWait is the pause before reading again a dataId Nacos says is being
// written.
const busyWait = 20 * time.Millisecond

// maxBody bounds the body read from Nacos; a config is far smaller (Nacos's
// own default limit is 100 KiB).
const maxBody = 16 << 20
