package redis

import (
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

func TestNewTokenServiceRejectsBadOptions(t *testing.T) {
	cases := map[string]struct {
		opt  Option
		want string
	}{
		"empty namespace":       {WithNamespace(""), "namespace"},
		"zero timeout":          {WithTimeout(0), "timeout"},
		"zero lease fraction":   {WithLeaseFraction(0), "lease fraction"},
		"lease fraction over 1": {WithLeaseFraction(1.5), "lease fraction"},
		"ttl below interval":    {WithHeartbeat(time.Second, time.Second), "heartbeat"},
		"zero probe interval":   {WithProbeInterval(0), "probe interval"},
		"zero close timeout":    {WithCloseTimeout(0), "close timeout"},
	}
	client := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1"}) // never contacted
	t.Cleanup(func() { _ = client.Close() })
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			svc, err := NewTokenService(client, tc.opt)
			if err == nil {
				_ = svc.Close()
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestDefaultsAreValidAndInstanceIDsUnique(t *testing.T) {
	client := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { _ = client.Close() })
	a, err := NewTokenService(client)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewTokenService(client)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = a.Close(), b.Close() })
	if a.InstanceID() == "" || a.InstanceID() == b.InstanceID() {
		t.Errorf("instance IDs %q and %q: want distinct, non-empty", a.InstanceID(), b.InstanceID())
	}
	if a.cfg.timeout != DefaultTimeout || a.cfg.leaseFraction != DefaultLeaseFraction || a.cfg.closeTimeout != DefaultCloseTimeout {
		t.Errorf("defaults not applied: %+v", a.cfg)
	}
}
