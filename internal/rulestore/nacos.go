package rulestore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/rules"
)

// nacosDefaultGroup is the group Sentinel keeps its rules in.
const nacosDefaultGroup = "SENTINEL_GROUP"

// readNacos reads the dataIds of every kind for app= (and those dataId=
// names) from group= (default SENTINEL_GROUP) of namespace=, signing in
// first when the URL carries a user and password.
func readNacos(ctx context.Context, u *url.URL) ([]rules.Document, error) {
	q := u.Query()
	group := q.Get("group")
	if group == "" {
		group = nacosDefaultGroup
	}
	namespace := q.Get("namespace")
	type wanted struct {
		dataID string
		kind   rules.Kind
	}
	var ids []wanted
	if app := q.Get("app"); app != "" {
		for _, k := range datasource.DocumentKinds() {
			ids = append(ids, wanted{datasource.DocumentName(app, k), k})
		}
	}
	for _, id := range queryList(q, "dataId") {
		kind, _ := datasource.DocumentKind(id) // KindAuto when not named by convention
		ids = append(ids, wanted{id, kind})
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("name the application with app=APP (its dataIds are APP-flow-rules and so on) or the dataIds with dataId=ID")
	}
	opts := nacosapi.Options{}
	if pass, ok := u.User.Password(); ok {
		opts.Username, opts.Password = u.User.Username(), pass
	}
	addr := u.Host
	if path := strings.TrimSuffix(u.Path, "/"); path != "" {
		addr = "http://" + u.Host + path // a server under another context path than /nacos
	}
	client, err := nacosapi.New(addr, opts)
	if err != nil {
		return nil, err
	}
	if opts.Password != "" {
		if err := client.Login(ctx); err != nil {
			return nil, err
		}
	}
	var (
		docs  []rules.Document
		names []string
	)
	for _, w := range ids {
		content, _, err := client.Get(ctx, w.dataID, group, namespace)
		if errors.Is(err, nacosapi.ErrNotFound) {
			names = append(names, w.dataID)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dataId %s: %w", w.dataID, err)
		}
		docs = append(docs, rules.Document{Name: "nacos:" + group + "/" + w.dataID, Data: []byte(content),
			Format: rules.FormatJSON, Kind: w.kind})
	}
	if len(docs) == 0 {
		where := "group " + group
		if namespace != "" {
			where += " of namespace " + namespace
		}
		return nil, fmt.Errorf("%w: none of the dataIds %s is in %s", errNothing, strings.Join(names, ", "), where)
	}
	return docs, nil
}
