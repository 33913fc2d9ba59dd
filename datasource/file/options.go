package file

import "time"

// Option configures a Source.
type Option func(*config)

// config is what Options set.
type config struct {
	pollInterval time.Duration
	settle       time.Duration
	maxSize      int64
}

// DefaultPollInterval is how often a Source looks at its file: a change
// written by rename is seen within this time (plus the read and apply, well
// under a millisecond for a rules file), far below a person's
// edit-save-look cycle.
const DefaultPollInterval = 250 * time.Millisecond

// DefaultSettle is how long a file changed in place must stay unchanged
// before it is read as rules. It is twice the longest pause of a slow writer
// seen in drills (1 s between writing "[[flow]] resource" and "count"), and
// short next to the time anyone waits for an edit to take. Writers that
// write a temporary file and rename it over the rules file skip it.
const DefaultSettle = 2 * time.Second

// DefaultMaxSize is the largest rules file a Source reads: 1 MiB, about
// 10,000 TOML rules or 4,000 pretty-printed Sentinel JSON ones, far beyond
// any real configuration. A bigger file is refused, not read: the source
// re-reads its file every few seconds, and a 50 MB file re-read every 5 s
// cost 8.4 MB/s of allocation before there was a limit.
const DefaultMaxSize = 1 << 20

// WithPollInterval sets how often the source looks at its file
// (DefaultPollInterval). Values <= 0 mean the default.
func WithPollInterval(d time.Duration) Option {
	return func(c *config) { c.pollInterval = d }
}

// WithSettle sets how long a file changed in place must stay unchanged
// before it is pushed (DefaultSettle). A file replaced by rename is pushed at
// once whatever the settle interval. Values < 0 mean the default; 0 pushes
// whatever the file holds when it is read, which lets a half-written file
// into force: use it only where every writer renames.
func WithSettle(d time.Duration) Option {
	return func(c *config) { c.settle = d }
}

// WithMaxSize sets the largest file the source reads, in bytes
// (DefaultMaxSize). A bigger file is reported, not read, and the last good
// rules stay in force. Values <= 0 mean the default.
func WithMaxSize(n int64) Option {
	return func(c *config) { c.maxSize = n }
}

func newConfig(opts []Option) config {
	cfg := config{settle: -1}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.pollInterval <= 0 {
		cfg.pollInterval = DefaultPollInterval
	}
	if cfg.settle < 0 {
		cfg.settle = DefaultSettle
	}
	if cfg.maxSize <= 0 {
		cfg.maxSize = DefaultMaxSize
	}
	return cfg
}
