package datasource_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
)

// A report of a gone document keeps the last good rules by default; with
// WithGoneMeansEmpty it puts an empty set in force. Other reports are
// rejected either way.
func TestGoneDocumentMeaning(t *testing.T) {
	good := []rules.Document{{Name: "flow.json", Data: []byte(`[{"resource":"g.a","grade":1,"count":3}]`)}}
	gone := fmt.Errorf("chan: key deleted: %w", datasource.ErrGone)
	lost := errors.New("chan: connection lost")

	t.Run("keeps the last good rules", func(t *testing.T) {
		w, src, applied, _ := startChanWatch(t, good)
		src.reports <- gone
		st.WaitUntil(t, "the report is counted", func() bool { return w.Rejected() == 1 })
		if !errors.Is(w.LastError(), datasource.ErrGone) {
			t.Errorf("LastError = %v, want ErrGone", w.LastError())
		}
		if applied.count() != 1 || len(w.Property().Get().Flow) != 1 {
			t.Errorf("%d sets applied, property %v; want the first kept", applied.count(), w.Property().Get())
		}
	})

	t.Run("gone means empty", func(t *testing.T) {
		w, src, applied, _ := startChanWatch(t, good, datasource.WithGoneMeansEmpty())
		src.reports <- lost
		st.WaitUntil(t, "the other report is counted", func() bool { return w.Rejected() == 1 })
		if applied.count() != 1 {
			t.Fatalf("%d sets applied after a lost connection, want 1", applied.count())
		}
		src.reports <- gone
		st.WaitUntil(t, "the empty set is applied", func() bool { return applied.count() == 2 })
		applied.mu.Lock()
		last := applied.sets[1]
		applied.mu.Unlock()
		if !last.Equal(rules.Set{}) {
			t.Errorf("applied %+v, want an empty set", last)
		}
		st.WaitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
		if w.Rejected() != 1 || len(w.Property().Get().Flow) != 0 {
			t.Errorf("Rejected %d, property %v; want 1 and no rules", w.Rejected(), w.Property().Get())
		}
	})
}
