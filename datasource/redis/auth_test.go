package redis

import (
	"context"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// TestUserPasswordAndDB reads from a database other than 0 as an ACL user
// with a password, and checks that a wrong password fails the start with an
// error naming the key.
func TestUserPasswordAndDB(t *testing.T) {
	c := admin(t)
	ctx := context.Background()
	user := strings.ToLower(testApp(t))
	if err := c.Do(ctx, "ACL", "SETUSER", user, "on", ">s3cret", "~*", "&*", "+@all").Err(); err != nil {
		t.Fatalf("ACL SETUSER: %v", err)
	}
	t.Cleanup(func() { _ = c.Do(context.Background(), "ACL", "DELUSER", user).Err() })
	db3 := goredis.NewClient(&goredis.Options{Addr: requireServer(t), DB: 3, MaxRetries: -1})
	defer db3.Close()
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, db3, key, key+"-channel", flowJSON("12"))
	t.Cleanup(func() { _ = db3.Del(context.Background(), key).Err() })

	_, applied := watch(t, newTestSource(t, func(cfg *Config) {
		cfg.Username, cfg.Password, cfg.DB = user, "s3cret", 3
		cfg.Kinds = []rules.Kind{rules.KindFlow}
	}))
	if s, _ := applied.Last(); len(s.Flow) != 1 || s.Flow[0].Count != 12 {
		t.Fatalf("read %+v from DB 3, want the flow rule of count 12", s.Flow)
	}

	bad := newTestSource(t, func(cfg *Config) {
		cfg.Username, cfg.Password, cfg.DB = user, "wrong", 3
		cfg.Kinds = []rules.Kind{rules.KindFlow}
	})
	wctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	start := time.Now()
	w, err := datasource.Watch(wctx, bad, datasource.WithLogger(testLogger(t)))
	if err == nil {
		<-w.Done()
		t.Fatal("Watch started with a wrong password")
	}
	if !strings.Contains(err.Error(), key) || !strings.Contains(strings.ToUpper(err.Error()), "WRONGPASS") {
		t.Errorf("error %v, want it to name the key and the refused password", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Watch took %v to fail", d)
	}
}
