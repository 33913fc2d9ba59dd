package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// outputDigests records, for each annotate.GenFormat, the digest of the
// generator's output on the golden corpus (see outputDigest). Append an
// entry when bumping GenFormat; never edit an old one.
var outputDigests = map[int]string{
	1: "827cbb47fbd5c43274f840b60be623bfc6c9cbde633a62b6fa4f4051e28ff24f",
	2: "fae91187e3893e5ddd109c662155df425a1185470393cd169c42fc4839b0d169",
	3: "a0284253b7de32a6cde9dfe2cb6cf700fad5eb3d31de3c6e838dd6b8002fd4fd",
	4: "69c95b092aff2d30d27c7c5c3a1d2e91e065a83c8b001d2139ca1bd2957b2895",
	5: "9757107c3a8c69709466b54514a7302ef820bcbd6b5a8e2aee27123a17d7cc70",
}

// outputDigest hashes every generated file the repository holds (the
// golden corpus's expected outputs, examples/orders and the benchmark
// case; TestGolden and the packages' own checks hold them equal to what
// Generate writes) with their fingerprint lines left out, which depend on
// GenFormat themselves.
func outputDigest(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenRoot(t), "*", "sentinel_gen*.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "examples", "orders", "sentinel_gen.go"), filepath.Join("internal", "benchcase", "sentinel_gen.go"))
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var kept [][]byte
		for _, l := range bytes.SplitAfter(b, []byte("\n")) {
			if !bytes.HasPrefix(l, []byte(annotate.FingerprintPrefix)) {
				kept = append(kept, l)
			}
		}
		rel, _ := filepath.Rel(goldenRoot(t), f)
		h.Write([]byte(filepath.ToSlash(rel) + "\x00"))
		h.Write(bytes.Join(kept, nil))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestGenFormatFollowsTheOutput fails when what the generator writes
// changes while annotate.GenFormat stays: the Analyzer would then take a
// file written by the previous generator for up to date. The fix is in
// the message.
func TestGenFormatFollowsTheOutput(t *testing.T) {
	got := outputDigest(t)
	want, ok := outputDigests[annotate.GenFormat]
	if !ok {
		t.Fatalf("no outputDigests entry for GenFormat %d: add %d: %q", annotate.GenFormat, annotate.GenFormat, got)
	}
	for v, d := range outputDigests {
		if d == got && v != annotate.GenFormat {
			t.Fatalf("the output is that of GenFormat %d, but GenFormat is %d", v, annotate.GenFormat)
		}
	}
	if got != want {
		var b strings.Builder
		b.WriteString("the generator's output changed (its golden files, examples/orders or the benchmark case) but annotate.GenFormat did not: ")
		b.WriteString("set GenFormat to " + strconv.Itoa(annotate.GenFormat+1) + " in annotate/fingerprint.go, add " + strconv.Itoa(annotate.GenFormat+1) + ": \"" + got + "\" to outputDigests, and regenerate (go test ./gen -run TestGolden -update; go generate in examples/orders and gen/internal/benchcase)")
		t.Fatal(b.String())
	}
}
