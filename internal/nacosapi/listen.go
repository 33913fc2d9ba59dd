package nacosapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Watched is one config a Listen call watches, with the MD5 of the content
// the caller holds ("" for a dataId it found missing).
type Watched struct {
	DataID, Group, Namespace string
	MD5                      string
}

// Key names a config Listen reports as changed.
type Key struct {
	DataID, Group, Namespace string
}

// The separators of Nacos's Listening-Configs field and of its answer.
const (
	wordSep = "\x02"
	lineSep = "\x01"
)

// minHold is the shortest time Nacos holds a long poll that sees no change,
// whatever Long-Pulling-Timeout asks for.
const minHold = 10 * time.Second

// Listen long-polls Nacos (POST /v1/cs/configs/listener): it returns as
// soon as the stored content of one of the watched configs differs from the
// MD5 given for it, naming the ones that differ, or with none after about
// hold (zero means 30 s, Nacos's own default; Nacos holds a poll at least
// 10 s whatever is asked). The caller then reads the changed ones with Get
// and listens again with their new MD5s. A change made between the caller's
// Get and its Listen is reported at once, since the MD5s differ.
func (c *Client) Listen(ctx context.Context, hold time.Duration, watched []Watched) ([]Key, error) {
	if hold <= 0 {
		hold = 30 * time.Second
	}
	var b strings.Builder
	for _, w := range watched {
		b.WriteString(w.DataID + wordSep + w.Group + wordSep + w.MD5)
		if w.Namespace != "" {
			b.WriteString(wordSep + w.Namespace)
		}
		b.WriteString(lineSep)
	}
	form := url.Values{"Listening-Configs": {b.String()}}
	header := http.Header{"Long-Pulling-Timeout": {strconv.FormatInt(hold.Milliseconds(), 10)}}
	// Nacos holds the poll at least minHold and answers a little before the
	// hold ends; the margin covers a busy server.
	status, body, _, err := c.do(ctx, http.MethodPost, "/v1/cs/configs/listener", nil, form, header, max(hold, minHold)+c.opts.Timeout)
	if err != nil {
		return nil, fmt.Errorf("listening: %w", err)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("listening: %w", statusError(status, body))
	}
	return parseChanged(body)
}

// parseChanged decodes the listener's answer: URL-encoded
// "dataId^2group[^2tenant]^1" lines.
func parseChanged(body string) ([]Key, error) {
	body = strings.TrimSpace(body)
	if body == "" {
		return nil, nil
	}
	dec, err := url.QueryUnescape(body)
	if err != nil {
		return nil, fmt.Errorf("listening: bad answer %q: %w", body, err)
	}
	var keys []Key
	for line := range strings.SplitSeq(dec, lineSep) {
		if line == "" {
			continue
		}
		f := strings.Split(line, wordSep)
		if len(f) < 2 {
			return nil, fmt.Errorf("listening: bad answer line %q", line)
		}
		k := Key{DataID: f[0], Group: f[1]}
		if len(f) > 2 {
			k.Namespace = f[2]
		}
		keys = append(keys, k)
	}
	return keys, nil
}
