package nacos

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
)

// authPassword is the password the auth test gives Nacos's admin user.
const authPassword = "nacos-ci"

// A Nacos with auth on: the right password reads the rules through the SDK
// (which the server refuses without a token, so the credentials reach it);
// a wrong one makes Watch fail at once with an error naming the user and
// the server, as does no user at all with the server's refusal.
func TestAuth(t *testing.T) {
	t.Parallel()
	srv := ownServer(t)
	addr := srv.addr()
	resp, err := http.PostForm("http://"+addr+"/nacos/v1/auth/users/admin", url.Values{"password": {authPassword}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("setting the admin password: %s", resp.Status)
	}
	// Nacos reloads its users every few seconds: the password holds from
	// the next reload.
	var tok string
	for deadline := time.Now().Add(2 * waitTimeout); tok == ""; time.Sleep(200 * time.Millisecond) {
		if tok = accessToken(addr, "nacos", authPassword); tok == "" && time.Now().After(deadline) {
			t.Fatal("the admin user cannot sign in with the password just set")
		}
	}
	id := testApp(t) + "-flow-rules"
	openAPI(t, addr, http.MethodPost, url.Values{"dataId": {id}, "group": {DefaultGroup}, "content": {flowJSON("8")},
		"type": {"json"}, "accessToken": {tok}})

	waitUntil(t, "the dataId is readable", func() bool {
		return openAPI(t, addr, http.MethodGet, url.Values{"dataId": {id}, "group": {DefaultGroup}, "accessToken": {tok}}) != ""
	})
	right := newTestSource(t, addr, func(c *Config) { c.Username, c.Password = "nacos", authPassword })
	w, _ := watch(t, right)
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{8}) {
		t.Errorf("read %v with the right password, want [8]", got)
	}

	for _, tc := range []struct{ name, user, password, want string }{
		{"wrong password", "nacos", "wrong", `as user "nacos": sign-in refused: wrong username or password`},
		{"unknown user", "nobody", authPassword, `as user "nobody": sign-in refused`},
		{"no user", "", "", "from " + addr + ": user not found"},
	} {
		src := newTestSource(t, addr, func(c *Config) { c.Username, c.Password = tc.user, tc.password })
		start := time.Now()
		got, err := datasource.Watch(context.Background(), src, datasource.WithLogger(quietLogger(t)),
			datasource.WithInitialTimeout(waitTimeout))
		if err == nil {
			<-got.Done()
			t.Errorf("%s: Watch started", tc.name)
			continue
		}
		t.Logf("%s: Watch failed in %v: %v", tc.name, time.Since(start).Round(time.Millisecond), err)
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), addr) {
			t.Errorf("%s: Watch error %q, want it to name the server %s and say %q", tc.name, err, addr, tc.want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: Watch took %v to fail", tc.name, d)
		}
	}
}

// accessToken signs in to Nacos's HTTP API; "" when refused.
func accessToken(addr, user, password string) string {
	resp, err := http.PostForm("http://"+addr+"/nacos/v1/auth/login", url.Values{"username": {user}, "password": {password}})
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"accessToken"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return body.AccessToken
}

// A username set for a server with auth off is no error: the server refuses
// the sign-in of a user it does not have, but reads without one.
func TestUsernameWithAuthOff(t *testing.T) {
	addr := needServer(t)
	id := testApp(t) + "-flow-rules"
	publish(t, addr, id, flowJSON("4"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, id) != "" })
	src := newTestSource(t, addr, func(c *Config) { c.Username, c.Password = "nacos", "whatever" })
	w, _ := watch(t, src)
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{4}) {
		t.Errorf("read %v, want [4]", got)
	}
}
