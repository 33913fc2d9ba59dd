package redis_test

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/redis"
	"github.com/sentinelgen/sentinelgen/rules"
)

// A service reads every kind of rule of the app "orders" from Redis, keeps
// them in force as they change, and writes changes made through the API
// back.
func ExampleNewSource() {
	src, err := redis.NewSource(redis.Config{
		Addr:     "127.0.0.1:6379",
		App:      "orders",
		Password: os.Getenv("REDIS_PASSWORD"),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := datasource.Watch(ctx, src, datasource.WithInitialTimeout(5*time.Second))
	if err != nil {
		log.Fatal(err) // Redis down, a wrong password, or rules that do not parse
	}
	stop, err := w.Persist()
	if err != nil {
		log.Fatal(err)
	}
	defer stop()
	log.Printf("flow rules from %s, announced on %s", src.Key(rules.KindFlow), src.Channel(rules.KindFlow))
}

// A Java service already reads its flow rules from the key and channel of
// Sentinel's own RedisDataSource tests; the Go service shares them.
func ExampleConfig_javaNames() {
	src, err := redis.NewSource(redis.Config{
		Addr:     "127.0.0.1:6379",
		Kinds:    []rules.Kind{rules.KindFlow},
		Keys:     map[rules.Kind]string{rules.KindFlow: "sentinel.rules.flow.ruleKey"},
		Channels: map[rules.Kind]string{rules.KindFlow: "sentinel.rules.flow.channel"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
}
