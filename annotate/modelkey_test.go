package annotate

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestForeignValuesAreUnkeyable: a value the encoder does not know how to
// write canonically makes the model unkeyable instead of half-described,
// in both encodings.
func TestForeignValuesAreUnkeyable(t *testing.T) {
	for enc := range numEncodings {
		for name, v := range map[string]any{
			"struct of another package": &time.Time{},
			"func":                      func() {},
			"map with int keys":         map[int]bool{1: true},
		} {
			e := modelEncoder{seen: make(map[uintptr]visit)}
			e.value(reflect.ValueOf(v), enc)
			if !errors.Is(e.err, ErrUnkeyable) {
				t.Errorf("encoding %d, %s: err %v; want ErrUnkeyable", enc, name, e.err)
			}
		}
	}
}
