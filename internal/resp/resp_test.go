package resp

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
)

// A scripted server answers each command with the next canned reply and
// records what it was sent, so every reply type is covered without Redis.
func TestDoReadsEveryReplyType(t *testing.T) {
	replies := []string{"+OK\r\n", ":42\r\n", "$5\r\nhe\r\no\r\n", "$-1\r\n", "-ERR wrong\r\n", "*0\r\n"}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	sent := make(chan string, len(replies))
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		in := bufio.NewReader(conn)
		for _, r := range replies {
			header, _ := in.ReadString('\n') // *N
			var cmd []string
			for i := 0; i < int(header[1]-'0'); i++ {
				in.ReadString('\n') // $len
				arg, _ := in.ReadString('\n')
				cmd = append(cmd, strings.TrimSuffix(arg, "\r\n"))
			}
			sent <- strings.Join(cmd, " ")
			conn.Write([]byte(r))
		}
	}()
	c, err := Dial(context.Background(), l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := []struct {
		value string
		found bool
		err   string
	}{{"OK", true, ""}, {"42", true, ""}, {"he\r\no", true, ""}, {"", false, ""}, {"", false, "redis: ERR wrong"}, {"", false, "unexpected reply"}}
	for i, w := range want {
		v, found, err := c.Do("GET", "k")
		if string(v) != w.value || found != w.found || (err == nil) != (w.err == "") || (err != nil && !strings.Contains(err.Error(), w.err)) {
			t.Errorf("reply %d: %q %v %v, want %q %v %q", i, v, found, err, w.value, w.found, w.err)
		}
		if got := <-sent; got != "GET k" {
			t.Errorf("server got %q", got)
		}
	}
}
