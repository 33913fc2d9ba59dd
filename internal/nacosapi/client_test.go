package nacosapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
)

// testGroup keeps the package's dataIds apart from anything else on the
// server.
const testGroup = "NACOSAPI_TEST"

func newClient(t *testing.T, addr string) *Client {
	t.Helper()
	c, err := New(addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dataID is a dataId of the test's own.
func dataID(t *testing.T) string {
	return strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())
}

// cleanUp deletes the dataIds when t ends: the server outlives the test
// (go test -count=2 runs it again).
func cleanUp(t *testing.T, c *Client, ns string, ids ...string) {
	t.Cleanup(func() {
		for _, id := range ids {
			_ = c.Delete(context.Background(), id, testGroup, ns)
		}
	})
}

func TestGetPublishDelete(t *testing.T) {
	addr := nacostest.Need(t)
	c := newClient(t, addr)
	ctx := context.Background()
	id := dataID(t)
	for _, ns := range []string{"", "ns-" + id} {
		if _, _, err := c.Get(ctx, id, testGroup, ns); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get of a missing dataId in namespace %q: err = %v, want ErrNotFound", ns, err)
		}
		content := `[{"resource":"a","count":1}]`
		if err := c.Publish(ctx, id, testGroup, ns, content, "json", ""); err != nil {
			t.Fatal(err)
		}
		got, sum := getSoon(t, c, id, ns)
		if got != content || sum != MD5(content) {
			t.Fatalf("Get = %q, %s; want %q, %s", got, sum, content, MD5(content))
		}
		if err := c.Delete(ctx, id, testGroup, ns); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the dataId is gone", func() bool {
			_, _, err := c.Get(ctx, id, testGroup, ns)
			return errors.Is(err, ErrNotFound)
		})
	}
	// The namespaces are apart: the public one does not see the other's.
	cleanUp(t, c, "ns-other", id)
	if err := c.Publish(ctx, id, testGroup, "ns-other", "x", "", ""); err != nil {
		t.Fatal(err)
	}
	getSoon(t, c, id, "ns-other")
	if _, _, err := c.Get(ctx, id, testGroup, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get in the public namespace: err = %v, want ErrNotFound", err)
	}
}

func TestPublishCompareAndSwap(t *testing.T) {
	addr := nacostest.Need(t)
	c := newClient(t, addr)
	ctx := context.Background()
	id := dataID(t)
	cleanUp(t, c, "", id)
	// MD5("") is the base of a missing dataId: it creates it...
	if err := c.Publish(ctx, id, testGroup, "", "one", "", MD5("")); err != nil {
		t.Fatalf("creating with the MD5 of nothing: %v", err)
	}
	getSoon(t, c, id, "")
	// ...and conflicts once it exists.
	if err := c.Publish(ctx, id, testGroup, "", "two", "", MD5("")); !errors.Is(err, ErrConflict) {
		t.Fatalf("creating an existing dataId: err = %v, want ErrConflict", err)
	}
	if err := c.Publish(ctx, id, testGroup, "", "two", "", MD5("stale")); !errors.Is(err, ErrConflict) {
		t.Fatalf("publishing on a stale MD5: err = %v, want ErrConflict", err)
	}
	if got, _ := getSoon(t, c, id, ""); got != "one" {
		t.Fatalf("after refused publishes the content is %q, want %q", got, "one")
	}
	if err := c.Publish(ctx, id, testGroup, "", "two", "", MD5("one")); err != nil {
		t.Fatalf("publishing on the current MD5: %v", err)
	}
	waitFor(t, "the content is the CAS publish's", func() bool {
		got, _, _ := c.Get(ctx, id, testGroup, "")
		return got == "two"
	})
	// A refused publish that is not a conflict is not reported as one.
	err := c.Publish(ctx, id, testGroup, "", "", "", MD5("two"))
	if err == nil || errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), id) {
		t.Fatalf("publishing empty content: err = %v, want a refusal naming %s that is not ErrConflict", err, id)
	}
}

func TestListen(t *testing.T) {
	addr := nacostest.Need(t)
	c := newClient(t, addr)
	ctx := context.Background()
	id, other := dataID(t), dataID(t)+"-other"
	cleanUp(t, c, "", id)
	cleanUp(t, c, "ns-"+id, other)
	if err := c.Publish(ctx, id, testGroup, "", "v1", "", ""); err != nil {
		t.Fatal(err)
	}
	_, sum := getSoon(t, c, id, "")
	watched := []Watched{{DataID: id, Group: testGroup, MD5: sum}, {DataID: other, Group: testGroup}}
	done := make(chan struct{})
	var keys []Key
	var lerr error
	start := time.Now()
	go func() {
		defer close(done)
		keys, lerr = c.Listen(ctx, 30*time.Second, watched)
	}()
	time.Sleep(500 * time.Millisecond) // let the poll reach the server
	if err := c.Publish(ctx, id, testGroup, "", "v2", "", ""); err != nil {
		t.Fatal(err)
	}
	<-done
	if lerr != nil {
		t.Fatal(lerr)
	}
	if len(keys) != 1 || keys[0] != (Key{DataID: id, Group: testGroup}) {
		t.Fatalf("Listen = %+v, want only %s", keys, id)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("Listen returned after %v: it waited out the hold instead of answering the change", d)
	}

	// A stale MD5 is answered at once; a namespace comes back with the key.
	ns := "ns-" + id
	if err := c.Publish(ctx, other, testGroup, ns, "x", "", ""); err != nil {
		t.Fatal(err)
	}
	getSoon(t, c, other, ns)
	keys, err := c.Listen(ctx, 30*time.Second, []Watched{{DataID: other, Group: testGroup, Namespace: ns, MD5: MD5("old")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0] != (Key{DataID: other, Group: testGroup, Namespace: ns}) {
		t.Fatalf("Listen = %+v, want %s in %s", keys, other, ns)
	}
}

func TestListenAnswersNothingAtTimeout(t *testing.T) {
	addr := nacostest.Need(t)
	c := newClient(t, addr)
	keys, err := c.Listen(context.Background(), time.Millisecond, []Watched{{DataID: dataID(t), Group: testGroup}})
	if err != nil || len(keys) != 0 {
		t.Fatalf("Listen of an unchanged missing dataId = %+v, %v; want nothing", keys, err)
	}
}

func TestParseChanged(t *testing.T) {
	keys, err := parseChanged("a%02G%01b%02G%02ns%01\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Key{{DataID: "a", Group: "G"}, {DataID: "b", Group: "G", Namespace: "ns"}}
	if len(keys) != 2 || keys[0] != want[0] || keys[1] != want[1] {
		t.Fatalf("parseChanged = %+v, want %+v", keys, want)
	}
	if _, err := parseChanged("a%01"); err == nil {
		t.Fatal("a line without a group parsed")
	}
}

// A 404 that is not Nacos's "config data not exist" (a wrong context path,
// another server) is an error, not a missing dataId: taken for one, it
// would read as "no rules".
func TestGetOtherNotFoundIsAnError(t *testing.T) {
	addr := nacostest.Need(t)
	c, err := New("http://"+addr+"/not-nacos", Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Get(context.Background(), dataID(t), testGroup, "")
	if err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("Get under a wrong context path: err = %v, want an error that is not ErrNotFound", err)
	}
}

func TestNewRejectsBadAddress(t *testing.T) {
	for _, addr := range []string{"", "localhost", "ftp://h:1/nacos", "http://"} {
		if _, err := New(addr, Options{}); err == nil {
			t.Errorf("New(%q) succeeded", addr)
		}
	}
	c, err := New("http://127.0.0.1:8848/nacos/", Options{})
	if err != nil || c.String() != "http://127.0.0.1:8848/nacos" {
		t.Fatalf("New(URL) = %v, %v", c, err)
	}
}

// Against a Nacos with auth on: no credentials and a wrong password are
// clear errors, the right ones read and write.
func TestLoginAgainstAuthServer(t *testing.T) {
	addr := nacostest.StartWith(t, nacostest.AuthArgs()...).Addr
	nacostest.SetAdminPassword(t, addr, "test-password")
	ctx := context.Background()
	id := dataID(t)

	anon := newClient(t, addr)
	if _, _, err := anon.Get(ctx, id, testGroup, ""); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("Get without credentials: err = %v, want the server's 403", err)
	}

	c, _ := New(addr, Options{Username: "nacos", Password: "test-password"})
	// Nacos reloads its user cache every few seconds: the new password
	// signs in once it has.
	deadline := time.Now().Add(45 * time.Second)
	for err := c.Login(ctx); err != nil; err = c.Login(ctx) {
		if time.Now().After(deadline) || !strings.Contains(err.Error(), "not found") {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	wrong, _ := New(addr, Options{Username: "nacos", Password: "wrong"})
	if err := wrong.Login(ctx); err == nil || !strings.Contains(err.Error(), "signing in") {
		t.Fatalf("Login with a wrong password: %v, want a sign-in error", err)
	}
	if _, _, err := wrong.Get(ctx, id, testGroup, ""); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("Get with a wrong password: err = %v, want the sign-in error", err)
	}
	if err := c.Publish(ctx, id, testGroup, "", "signed", "", MD5("")); err != nil {
		t.Fatal(err)
	}
	if got, _ := getSoon(t, c, id, ""); got != "signed" {
		t.Fatalf("Get = %q, want %q", got, "signed")
	}
}

// Nacos answers 409 to a read of a dataId being published; Get reads again
// rather than fail. The real server does so only by chance, so a stand-in
// answers 409 twice.
func TestGetWaitsOutABusyDataID(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			http.Error(w, "requested file is being modified, please try later.", http.StatusConflict)
			return
		}
		w.Write([]byte("content"))
	}))
	defer srv.Close()
	c, _ := New(srv.URL+"/nacos", Options{})
	got, sum, err := c.Get(context.Background(), "d", "G", "")
	if err != nil || got != "content" || sum != MD5("content") {
		t.Fatalf("Get = %q, %s, %v; want the content after the busy answers", got, sum, err)
	}
}

// TestTokenRenewal checks the client's side of auth with a server that
// revokes a token, and with the renewal time reached by moving it: the
// Nacos server used here cannot be made to expire a token in a test's
// time.
func TestTokenRenewal(t *testing.T) {
	var logins, issued atomic.Int64
	var revoked atomic.Value
	revoked.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/nacos/v1/auth/login":
			_ = r.ParseForm()
			if r.Form.Get("username") != "nacos" || r.Form.Get("password") != "secret" {
				http.Error(w, "unknown user!", http.StatusForbidden)
				return
			}
			logins.Add(1)
			tok := "t" + string(rune('0'+issued.Add(1)))
			_ = json.NewEncoder(w).Encode(map[string]any{"accessToken": tok, "tokenTtl": 3600})
		case "/nacos/v1/cs/configs":
			tok := r.URL.Query().Get("accessToken")
			if tok == "" || tok == revoked.Load() {
				http.Error(w, "token invalid!", http.StatusForbidden)
				return
			}
			w.Write([]byte("content"))
		}
	}))
	defer srv.Close()
	ctx := context.Background()

	bad, _ := New(srv.URL+"/nacos", Options{Username: "nacos", Password: "wrong"})
	if err := bad.Login(ctx); err == nil || !strings.Contains(err.Error(), "unknown user") {
		t.Fatalf("Login with a wrong password: %v, want the server's refusal", err)
	}

	c, _ := New(srv.URL+"/nacos", Options{Username: "nacos", Password: "secret"})
	for range 3 {
		if _, _, err := c.Get(ctx, "d", "G", ""); err != nil {
			t.Fatal(err)
		}
	}
	if n := logins.Load(); n != 1 {
		t.Fatalf("three reads within the token's life signed in %d times, want 1", n)
	}
	c.mu.Lock()
	if life := time.Until(c.renewAt); life < 50*time.Minute || life > time.Hour {
		t.Errorf("a token of an hour is renewed in %v, want at nine tenths of its life", life)
	}
	c.renewAt = time.Now().Add(-time.Second) // as when that time has come
	c.mu.Unlock()
	if _, _, err := c.Get(ctx, "d", "G", ""); err != nil {
		t.Fatal(err)
	}
	if n := logins.Load(); n != 2 {
		t.Fatalf("a read after the token's renewal time signed in %d times in all, want 2", n)
	}
	c.mu.Lock()
	revoked.Store(c.token)
	c.mu.Unlock()
	if got, _, err := c.Get(ctx, "d", "G", ""); err != nil || got != "content" {
		t.Fatalf("a read with a revoked token = %q, %v; want it to sign in again and succeed", got, err)
	}
}

// getSoon reads a dataId just published, which Nacos may answer 404 for a
// moment.
func getSoon(t *testing.T, c *Client, id, ns string) (content, md5 string) {
	t.Helper()
	waitFor(t, "dataId "+id+" is readable", func() bool {
		var err error
		content, md5, err = c.Get(context.Background(), id, testGroup, ns)
		return err == nil
	})
	return content, md5
}

// waitFor polls cond until it holds, failing t after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
