package httpguard

import (
	"bufio"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestWrappedWriterKeepsStreamingAndHijack checks, over a real server, that
// the writer the guard hands a handler still flushes (as an http.Flusher
// and through http.ResponseController) and hands over the connection.
func TestWrappedWriterKeepsStreamingAndHijack(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	g := New()
	g.HandleFunc(mux, "GET /stream", func(w http.ResponseWriter, r *http.Request) {
		f, ok := w.(http.Flusher)
		if !ok {
			t.Error("the writer is not an http.Flusher")
			return
		}
		_, _ = w.Write([]byte("a\n"))
		f.Flush()
		_, _ = w.Write([]byte("b\n"))
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("ResponseController.Flush: %v", err)
		}
	})
	g.HandleFunc(mux, "GET /hijack", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
		_ = buf.Flush()
	})
	srv := serve(t, mux)
	if r := get(t, srv, "/stream"); r.status != 200 || r.body != "a\nb\n" {
		t.Errorf("stream: %d %q", r.status, r.body)
	}
	conn, err := net.DialTimeout("tcp", srv.Listener.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = conn.Write([]byte("GET /hijack HTTP/1.1\r\nHost: x\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("hijacked response: %d", resp.StatusCode)
	}
	// The handler wrote its response on the connection itself, so the
	// call may end just after the client has read it.
	res := findResource("GET /hijack")
	for deadline := time.Now().Add(5 * time.Second); res.Snapshot().Concurrency != 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if s := res.Snapshot(); s.Success != 1 || s.Error != 0 {
		t.Errorf("hijacked call: %+v, want one success", s)
	}
}
