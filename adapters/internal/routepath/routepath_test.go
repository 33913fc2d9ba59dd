package routepath

import "testing"

func TestFromColon(t *testing.T) {
	for in, want := range map[string]string{
		"/orders/:id":           "/orders/{id}",
		"/orders/:id/items/:n":  "/orders/{id}/items/{n}",
		"/files/*path":          "/files/{path...}",
		"/static/*":             "/static/{*...}",
		"/health":               "/health",
		"/":                     "/",
		"/a:b/c":                "/a:b/c",
		"/users/:id/avatar.png": "/users/{id}/avatar.png",
	} {
		if got := FromColon(in); got != want {
			t.Errorf("FromColon(%q) = %q, want %q", in, got, want)
		}
	}
}
