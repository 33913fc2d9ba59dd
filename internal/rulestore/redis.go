package rulestore

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/resp"
	"github.com/sentinelgen/sentinelgen/rules"
)

// readRedis reads the keys the URL names (key=, or app= for the default key
// of every kind) with GET, after AUTH and SELECT when the URL asks for them.
func readRedis(ctx context.Context, u *url.URL) ([]rules.Document, error) {
	q := u.Query()
	keys := queryList(q, "key")
	if app := q.Get("app"); app != "" {
		for _, k := range datasource.DocumentKinds() {
			keys = append(keys, datasource.DocumentName(app, k))
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("name the keys to read with key=KEY (repeatable) or app=APP")
	}
	c, err := resp.Dial(ctx, u.Host)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if pass, ok := u.User.Password(); ok {
		args := []string{"AUTH", pass}
		if user := u.User.Username(); user != "" {
			args = []string{"AUTH", user, pass}
		}
		if _, _, err := c.Do(args...); err != nil {
			return nil, fmt.Errorf("AUTH: %w", err)
		}
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		if _, err := strconv.Atoi(db); err != nil {
			return nil, fmt.Errorf("database %q in the path is not a number", db)
		}
		if _, _, err := c.Do("SELECT", db); err != nil {
			return nil, fmt.Errorf("SELECT %s: %w", db, err)
		}
	}
	var docs []rules.Document
	for _, key := range keys {
		value, found, err := c.Do("GET", key)
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", key, err)
		}
		if found {
			kind, _ := datasource.DocumentKind(key) // KindAuto when not named by convention
			docs = append(docs, rules.Document{Name: "redis:" + key, Data: value, Kind: kind})
		}
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%w: none of the keys %s exists", errNothing, strings.Join(keys, ", "))
	}
	return docs, nil
}
