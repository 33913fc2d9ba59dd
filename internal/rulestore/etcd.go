package rulestore

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
)

// readEtcd reads one key, or every key under a prefix (a path ending in
// "/"), through etcd's JSON gateway (/v3/kv/range), signing in first when
// the URL carries a user and password.
func readEtcd(ctx context.Context, u *url.URL) ([]rules.Document, error) {
	key := u.Path
	if key == "" || key == "/" {
		return nil, fmt.Errorf("name the key (or a prefix ending in /) in the path, e.g. etcd://%s/sentinel/orders/", u.Host)
	}
	base := "http://" + u.Host
	token := ""
	if pass, ok := u.User.Password(); ok {
		var auth struct {
			Token string `json:"token"`
		}
		if err := etcdCall(ctx, base+"/v3/auth/authenticate", "", map[string]string{"name": u.User.Username(), "password": pass}, &auth); err != nil {
			return nil, fmt.Errorf("signing in as %s: %w", u.User.Username(), err)
		}
		token = auth.Token
	}
	req := map[string]string{"key": base64.StdEncoding.EncodeToString([]byte(key))}
	prefix := strings.HasSuffix(key, "/")
	if prefix {
		req["range_end"] = base64.StdEncoding.EncodeToString(prefixEnd([]byte(key)))
	}
	var resp struct {
		Kvs []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"kvs"`
	}
	if err := etcdCall(ctx, base+"/v3/kv/range", token, req, &resp); err != nil {
		return nil, err
	}
	var docs []rules.Document
	for _, kv := range resp.Kvs {
		k, err := base64.StdEncoding.DecodeString(kv.Key)
		if err != nil {
			return nil, fmt.Errorf("etcd answered a key not in base64: %v", err)
		}
		v, err := base64.StdEncoding.DecodeString(kv.Value)
		if err != nil {
			return nil, fmt.Errorf("etcd answered the value of %s not in base64: %v", k, err)
		}
		docs = append(docs, rules.Document{Name: "etcd:" + string(k), Data: v})
	}
	if len(docs) == 0 {
		what := "key " + key
		if prefix {
			what = "key under " + key
		}
		return nil, fmt.Errorf("%w: no %s", errNothing, what)
	}
	return docs, nil
}

// etcdCall posts body as JSON to the gateway and decodes the answer into out.
func etcdCall(ctx context.Context, endpoint, token string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s: %s", endpoint, resp.Status, bytes.TrimSpace(answer))
	}
	return json.Unmarshal(answer, out)
}

// prefixEnd is the range end that covers every key starting with prefix:
// prefix with its last byte below 0xff incremented.
func prefixEnd(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return []byte{0}
}
