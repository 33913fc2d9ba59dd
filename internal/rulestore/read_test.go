package rulestore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
	"github.com/sentinelgen/sentinelgen/internal/servertest"
	"github.com/sentinelgen/sentinelgen/rules"
)

const flowJSON = `[{"resource": "createOrder", "count": 5}]`

func names(docs []rules.Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.Name)
	}
	return out
}

func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"nacos://127.0.0.1:8848/?app=orders": true,
		"ETCD://h:2379/k":                    true,
		"redis://h:6379?key=k":               true,
		"rules.toml":                         false,
		"./dir":                              false,
		"ftp://h/x":                          false,
	} {
		if got := IsURL(s); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestReadRefusesWhatItCannotRead(t *testing.T) {
	for raw, want := range map[string]string{
		"ftp://h/x":                       `unknown scheme "ftp"`,
		"redis:///?key=a":                 "no host:port",
		"redis://127.0.0.1:1/?x=1":        "key=KEY",
		"redis://127.0.0.1:1/db?key=a":    "", // refused connection or bad db: an error either way
		"etcd://127.0.0.1:1":              "name the key",
		"nacos://127.0.0.1:1/?group=G":    "app=",
		"redis://u:secret@127.0.0.1:1/?a": "xxxxx",
	} {
		_, err := Read(context.Background(), raw)
		if err == nil {
			t.Errorf("Read(%q) succeeded", raw)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%q): %v, want it to say %q", raw, err, want)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Read(%q) shows the password: %v", raw, err)
		}
	}
}

func TestReadRedisKeys(t *testing.T) {
	addr := servertest.StartRedis(t, "--requirepass", "pw")
	servertest.Redis(t, addr, "pw", "SET", "orders-flow", flowJSON)
	servertest.Redis(t, addr, "pw", "SET", "orders-degrade", `[{"resource": "createOrder", "grade": 2, "count": 3, "timeWindow": 10}]`)

	docs, err := Read(context.Background(), "redis://:pw@"+addr+"/0?key=orders-flow,orders-degrade&key=missing")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(docs); !slices.Equal(got, []string{"redis:orders-flow", "redis:orders-degrade"}) {
		t.Fatalf("documents %v", got)
	}
	set, err := rules.ParseAll(docs)
	if err != nil || len(set.Flow) != 1 || len(set.Degrade) != 1 {
		t.Fatalf("parsed %d flow, %d degrade rules, err %v", len(set.Flow), len(set.Degrade), err)
	}

	servertest.Redis(t, addr, "pw", "SET", "orders-param-rules", `[{"resource": "createOrder", "paramIdx": 0, "count": 5}]`)
	docs, err = Read(context.Background(), "redis://:pw@"+addr+"/?app=orders")
	if err != nil || !slices.Equal(names(docs), []string{"redis:orders-param-rules"}) || docs[0].Kind != rules.KindParamFlow {
		t.Fatalf("app=orders: %v %v", names(docs), err)
	}

	_, err = Read(context.Background(), "redis://:wrong@"+addr+"/?key=orders-flow")
	if err == nil || !strings.Contains(err.Error(), "AUTH") {
		t.Errorf("a wrong password: %v", err)
	}
	_, err = Read(context.Background(), "redis://:pw@"+addr+"/?key=nope")
	if !errors.Is(err, errNothing) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("no key found: %v", err)
	}
}

func TestReadEtcdKeyAndPrefix(t *testing.T) {
	addr := servertest.StartEtcd(t)
	servertest.EtcdPut(t, addr, "/sentinel/orders/flow.json", flowJSON)
	servertest.EtcdPut(t, addr, "/sentinel/orders/rules.toml", "[[degrade]]\nresource = 'createOrder'\ngrade = 2\ncount = 3\ntimeWindow = 10\n")
	servertest.EtcdPut(t, addr, "/sentinel/ordersx/flow.json", flowJSON)

	docs, err := Read(context.Background(), "etcd://"+addr+"/sentinel/orders/")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(docs); !slices.Equal(got, []string{"etcd:/sentinel/orders/flow.json", "etcd:/sentinel/orders/rules.toml"}) {
		t.Fatalf("documents under the prefix %v", got)
	}
	set, err := rules.ParseAll(docs)
	if err != nil || len(set.Flow) != 1 || len(set.Degrade) != 1 {
		t.Fatalf("parsed %d flow, %d degrade rules, err %v", len(set.Flow), len(set.Degrade), err)
	}

	docs, err = Read(context.Background(), "etcd://"+addr+"/sentinel/orders/flow.json")
	if err != nil || !slices.Equal(names(docs), []string{"etcd:/sentinel/orders/flow.json"}) {
		t.Fatalf("one key: %v %v", names(docs), err)
	}
	_, err = Read(context.Background(), "etcd://"+addr+"/sentinel/nothing/")
	if !errors.Is(err, errNothing) || !strings.Contains(err.Error(), "/sentinel/nothing/") {
		t.Errorf("an empty prefix: %v", err)
	}
}

func TestPrefixEnd(t *testing.T) {
	for in, want := range map[string]string{"/a/": "/a0", "a\xff": "b", "\xff\xff": "\x00"} {
		if got := string(prefixEnd([]byte(in))); got != want {
			t.Errorf("prefixEnd(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadNacos(t *testing.T) {
	addr := nacostest.Start(t).Addr
	client, err := nacosapi.New(addr, nacosapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for id, content := range map[string]string{
		"orders-flow-rules":  flowJSON,
		"orders-param-rules": `[{"resource": "createOrder", "paramIdx": 0, "count": 5}]`,
		"extra":              `[{"resource": "createOrder", "grade": 2, "count": 3, "timeWindow": 10}]`,
	} {
		if err := client.Publish(ctx, id, "SENTINEL_GROUP", "prod", content, "json", ""); err != nil {
			t.Fatal(err)
		}
	}
	url := "nacos://" + addr + "/?app=orders&namespace=prod&dataId=extra"
	var docs []rules.Document
	deadline := time.Now().Add(10 * time.Second)
	for { // a read straight after a publish may not see it yet
		docs, err = Read(ctx, url)
		if len(docs) == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"nacos:SENTINEL_GROUP/orders-flow-rules", "nacos:SENTINEL_GROUP/orders-param-rules", "nacos:SENTINEL_GROUP/extra"}
	if got := names(docs); !slices.Equal(got, want) {
		t.Fatalf("documents %v, want %v", got, want)
	}
	set, err := rules.ParseAll(docs)
	if err != nil || len(set.Flow) != 1 || len(set.ParamFlow) != 1 || len(set.Degrade) != 1 {
		t.Fatalf("parsed %d flow, %d param-flow, %d degrade rules, err %v", len(set.Flow), len(set.ParamFlow), len(set.Degrade), err)
	}

	// Another namespace holds none of them: an error naming what was looked for.
	_, err = Read(ctx, "nacos://"+addr+"/?app=orders")
	if !errors.Is(err, errNothing) || !strings.Contains(err.Error(), "orders-flow-rules") || !strings.Contains(err.Error(), "SENTINEL_GROUP") {
		t.Errorf("an empty namespace: %v", err)
	}
}
