// Package nacosrules reads Sentinel rule documents from Nacos and writes
// them back over Nacos's HTTP Open API (package nacosapi): one dataId per
// rule kind in one group of a namespace, named and encoded as the
// datasource/nacos module names and encodes them, so both read and write
// the same dataIds.
//
// It exists so that the orders example, in the main module, can keep its
// rules in Nacos without the main module depending on the Nacos SDK.
// Services should use datasource/nacos, which adds local snapshots, several
// servers and the SDK's gRPC push.
package nacosrules

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/rules"
)

// DefaultGroup is the Nacos group Sentinel keeps its rules in.
const DefaultGroup = "SENTINEL_GROUP"

// Kinds are the rule kinds kept in Nacos, each in its own dataId.
func Kinds() []rules.Kind { return datasource.DocumentKinds() }

// DataID is the dataId of app's rules of kind: app + "-flow-rules" and so
// on (datasource.DocumentName); "" for a kind not kept in Nacos.
func DataID(app string, kind rules.Kind) string { return datasource.DocumentName(app, kind) }

// Config says where a Source finds its rules.
type Config struct {
	// Client talks to the Nacos server. Required.
	Client *nacosapi.Client
	// Namespace is the namespace ID; "" is the public namespace.
	Namespace string
	// Group holds the dataIds; "" means DefaultGroup.
	Group string
	// App names the application: the dataIds are DataID(App, kind).
	// Required.
	App string
	// Hold is how long one long poll waits for a change (zero means 30 s).
	Hold time.Duration
	// RetryInterval is the wait before reading again after a failure (zero
	// means 1 s).
	RetryInterval time.Duration
	// ConflictRetries is how many times Write publishes again on the fresh
	// content after a compare-and-swap conflict (zero means 3).
	ConflictRetries int
	// Logger receives the source's own notes; nil means slog.Default().
	Logger *slog.Logger
}

// Source reads the rules of every kind of Kinds from its dataId and writes
// them back. It implements datasource.Source and datasource.WritableSource;
// it runs one Watch at a time, and Write may be called while it runs.
type Source struct {
	cfg   Config
	kinds []kindID

	watching atomic.Bool
	// writeMu orders Writes, so each builds on the one before.
	writeMu sync.Mutex
	// mu guards base.
	mu sync.Mutex
	// base is each dataId's content as last read or written ("" when
	// missing): what Write compares and swaps against.
	base map[string]string
	// written is what Write last published to each dataId, and when.
	written map[string]publish
	// writing counts the Writes under way.
	writing atomic.Int32
}

// publish is content a Write published and when.
type publish struct {
	content string
	at      time.Time
}

// kindID is a rule kind and the dataId holding it.
type kindID struct {
	kind   rules.Kind
	dataID string
}

// New returns a source of cfg's dataIds. It does not contact Nacos.
func New(cfg Config) (*Source, error) {
	if cfg.Client == nil {
		return nil, errors.New("nacosrules: Config.Client is nil")
	}
	if cfg.App == "" {
		return nil, errors.New("nacosrules: Config.App is empty: the dataIds are named after the app")
	}
	if cfg.Group == "" {
		cfg.Group = DefaultGroup
	}
	if cfg.Hold <= 0 {
		cfg.Hold = 30 * time.Second
	}
	if cfg.RetryInterval <= 0 {
		cfg.RetryInterval = time.Second
	}
	if cfg.ConflictRetries <= 0 {
		cfg.ConflictRetries = 3
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Source{cfg: cfg, base: map[string]string{}, written: map[string]publish{}}
	for _, k := range Kinds() {
		s.kinds = append(s.kinds, kindID{kind: k, dataID: DataID(cfg.App, k)})
	}
	return s, nil
}

// String names the source in logs and errors:
// "nacos:NAMESPACE/SENTINEL_GROUP/orders-*" (no namespace part for the
// public one).
func (s *Source) String() string {
	ns := ""
	if s.cfg.Namespace != "" {
		ns = s.cfg.Namespace + "/"
	}
	return "nacos:" + ns + s.cfg.Group + "/" + s.cfg.App + "-*"
}

// DataID returns the dataId the source keeps the rules of kind in.
func (s *Source) DataID(kind rules.Kind) string {
	for _, k := range s.kinds {
		if k.kind == kind {
			return k.dataID
		}
	}
	return ""
}

// docName is the document name of a dataId, so that errors read
// "nacos:SENTINEL_GROUP/orders-flow-rules: [0].count ...".
func (s *Source) docName(dataID string) string { return "nacos:" + s.cfg.Group + "/" + dataID }

// document is the rule document a dataId's content is.
func (s *Source) document(k kindID, content string) rules.Document {
	return rules.Document{Name: s.docName(k.dataID), Data: []byte(content), Format: rules.FormatJSON, Kind: k.kind}
}

func (s *Source) baseOf(dataID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.base[dataID]
	return c, ok
}

func (s *Source) setBase(dataID, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.base[dataID] = content
}

// errorf names the source in an error.
func (s *Source) errorf(format string, args ...any) error {
	return fmt.Errorf("%v: "+format, append([]any{s}, args...)...)
}
