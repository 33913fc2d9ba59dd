// Command genspeed measures how long sentinelgen takes on a large module
// compared with `go list -export -deps`, the floor any loader built on the go
// command pays. It writes a synthetic module (packages x annotated methods,
// importing each other in a tree and using a snapshot of the repository's
// runtime through a replace directive), builds sentinelgen once, warms the
// build cache with one run of every command, then times interleaved runs and
// prints the medians, the ratio sentinelgen / go list of the medians and the
// median of that ratio within each round (less moved by a busy machine).
//
// Usage, from the repository:
//
//	go run ./scripts/genspeed [-packages 100] [-methods 10] [-runs 5] [-keep | -dir path]
//	    [-module dir | -synthetic=false] [-annotate dir [-constrained]] [-baseline sentinelgen-binary]
//
// -module measures an existing module (for example a copy of
// go.etcd.io/etcd/server/v3, see scripts/genspeed/etcd.sh) instead of the
// synthetic one, as it is. -annotate measures, after the first module, a
// copy of an existing module with directives added mechanically (every
// error-returning function and method of its hand-written, unconstrained
// files: see addDirectives; with -constrained, its constrained files too),
// so that a real module's generated files are written, compiled and kept
// up to date as well; with several modules a summary table ends the
// output. -baseline also times another sentinelgen binary (an earlier
// build) in the same rounds, so that the previous figure and the new one
// come from one run on the same machine state; it works on a copy of the
// module of its own (<dir>-baseline, beside it), since an older generator's
// output may differ.
//
// The synthetic module and a copy of etcd's server module with directives
// added, each timed against a baseline binary OLD, with the figures side by
// side:
//
//	./scripts/genspeed/etcd.sh && go run ./scripts/genspeed -runs 15 -annotate /tmp/genspeed-etcd/server -baseline OLD
//
// The goal (goalRatio) is a ratio of at most 1.2 with a warm cache and an
// unchanged module: a run that finds nothing to do should cost little more
// than the go list any loader pays.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// sentinelModule is the module whose generator is measured.
const sentinelModule = "github.com/sentinelgen/sentinelgen"

// goalRatio is the speed goal: sentinelgen ./... takes at most this many
// times as long as go list -export -deps ./... on the same module.
const goalRatio = 1.2

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "genspeed:", err)
		os.Exit(1)
	}
}

// result is what one module's measurement found.
type result struct {
	Name                   string        // the module's name in the summary
	List, Gen, Check, Base time.Duration // medians (Base: the -baseline binary, 0 without)
	Ratio                  float64       // Gen / List
	PerRound               float64       // the median of gen / list within each round (pairedRatio)
	Dir                    string        // the module measured
	Generated              int           // sentinel_gen.go files in it
}

// The timed commands' labels.
const (
	labelList  = "go list -export -deps ./..."
	labelGen   = "sentinelgen ./..."
	labelCheck = "sentinelgen -check ./..."
	labelBase  = "baseline sentinelgen ./..."
)

// run measures the modules the flags name, in turn, and returns their
// results in order.
func run(ctx context.Context, args []string, out io.Writer) ([]result, error) {
	fs := flag.NewFlagSet("genspeed", flag.ContinueOnError)
	fs.SetOutput(out)
	packages := fs.Int("packages", 100, "number of packages in the synthetic module")
	methods := fs.Int("methods", 10, "annotated methods per package")
	runs := fs.Int("runs", 5, "timed runs of each command")
	keep := fs.Bool("keep", false, "keep the synthetic module and the built sentinelgen, and print where they are")
	repo := fs.String("repo", "", "the sentinelgen repository (default: the module enclosing the working directory)")
	workDir := fs.String("dir", "", "work in this directory and keep it (default: a new temporary one);\n"+
		"reusing one keeps the build cache warm from one invocation to the next")
	module := fs.String("module", "", "measure this existing module instead of writing the synthetic one (it must already use sentinelgen's runtime if it has directives)")
	annotate := fs.String("annotate", "", "also measure a copy of this module (for example the etcd copy etcd.sh makes) with directives\n"+
		"added to its error-returning functions and methods (see directives.go)")
	withConstrained := fs.Bool("constrained", false, "with -annotate, add directives in build-constrained files too (sentinelgen then\n"+
		"loads those packages for their other platforms on every run)")
	synthetic := fs.Bool("synthetic", true, "measure the synthetic module (unless -module is given); -synthetic=false with -annotate measures that alone")
	baseline := fs.String("baseline", "", "also time this sentinelgen binary, interleaved, for a before/after figure")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *packages < 1 || *methods < 1 || *runs < 1 {
		return nil, errors.New("-packages, -methods and -runs must be at least 1")
	}
	if *module == "" && !*synthetic && *annotate == "" {
		return nil, errors.New("-synthetic=false leaves nothing to measure without -module or -annotate")
	}
	if *repo == "" {
		var err error
		if *repo, err = findRepo(ctx); err != nil {
			return nil, err
		}
	}
	work := *workDir
	if work == "" {
		var err error
		if work, err = os.MkdirTemp("", "genspeed-"); err != nil {
			return nil, err
		}
	}
	if *keep || *workDir != "" {
		fmt.Fprintln(out, "work directory (kept):", work)
	} else {
		defer os.RemoveAll(work)
	}

	bin := filepath.Join(work, "bin", "sentinelgen")
	build := command{label: "go build", argv: []string{"go", "build", "-o", bin, sentinelModule + "/cmd/sentinelgen"}}
	if _, err := build.run(ctx, *repo); err != nil {
		return nil, err
	}

	var targets []target
	if *module == "" && *synthetic {
		dir, err := writeSynthetic(*repo, work, *packages, *methods)
		if err != nil {
			return nil, err
		}
		targets = append(targets, target{name: "synthetic", dir: dir, wantGenerated: *packages,
			about: fmt.Sprintf("%d packages x %d annotated methods = %d resources", *packages, *methods, *packages**methods)})
	} else if *module != "" {
		targets = append(targets, target{name: filepath.Base(*module), dir: *module, wantGenerated: -1, about: *module})
	}
	if *annotate != "" {
		dir := filepath.Join(work, "annotated")
		n, err := copyWithDirectives(ctx, *repo, *annotate, dir, *withConstrained)
		if err != nil {
			return nil, err
		}
		mod := filepath.Join(dir, "module")
		if err := goModTidyEnough(ctx, mod); err != nil {
			return nil, err
		}
		name := filepath.Base(*annotate) + " + directives"
		if *withConstrained {
			name += " (constrained too)"
		}
		targets = append(targets, target{name: name, dir: mod, wantGenerated: -1,
			about: fmt.Sprintf("a copy of %s with %d directives added", *annotate, n)})
	}

	var results []result
	for _, tg := range targets {
		r, err := measure(ctx, tg, bin, *baseline, *runs, out)
		if err != nil {
			return results, err
		}
		results = append(results, r)
	}
	if len(results) > 1 {
		printSummary(out, results, *baseline != "")
	}
	return results, nil
}

// target is one module to measure.
type target struct {
	name  string // as the summary prints it
	dir   string
	about string // printed before its figures
	// wantGenerated is the number of sentinel_gen.go files the first run
	// must leave, or -1 when any number will do.
	wantGenerated int
}

// measure warms the build cache for tg and times the commands in
// interleaved rounds.
func measure(ctx context.Context, tg target, bin, baseline string, runs int, out io.Writer) (result, error) {
	list := command{label: labelList, argv: []string{"go", "list", "-export", "-deps", "./..."}}
	gen := command{label: labelGen, argv: []string{bin, "./..."}}
	check := command{label: labelCheck, argv: []string{bin, "-check", "./..."}}

	cmds := []command{list, gen, check}
	warm := []command{gen, list, check}
	dirs := []string{tg.dir}
	if baseline != "" {
		// The baseline works on a copy of its own: an older generator may
		// write other bytes, and the two taking turns at one directory
		// would each find the other's files stale, rewrite them and make
		// go list recompile, so that no run measured would be a warm,
		// unchanged one.
		baseDir := tg.dir + "-baseline"
		if err := os.RemoveAll(baseDir); err != nil {
			return result{}, err
		}
		if err := copyTree(tg.dir, baseDir); err != nil {
			return result{}, err
		}
		base := command{label: labelBase, argv: []string{baseline, "./..."}, dir: baseDir}
		baseList := command{label: labelList + " (baseline's copy)", argv: list.argv, dir: baseDir}
		cmds = append(cmds, base)
		warm = append(warm, base, baseList, base)
		dirs = append(dirs, baseDir)
	}
	fmt.Fprintf(out, "module %s: %s\n", tg.name, tg.about)
	// Warm-up, in this order: the first sentinelgen run writes the
	// generated files, which go list must then compile with the packages;
	// the -check run then finds nothing to do, which the next runs reuse.
	for _, c := range warm {
		d, err := c.run(ctx, tg.dir)
		if err != nil {
			return result{}, err
		}
		fmt.Fprintf(out, "warm-up %-28s %s\n", c.label, seconds(d))
	}
	n, err := countGenerated(tg.dir)
	if err != nil {
		return result{}, err
	}
	if tg.wantGenerated >= 0 && n != tg.wantGenerated {
		return result{}, fmt.Errorf("sentinelgen wrote %d generated files, want one per package (%d)", n, tg.wantGenerated)
	}
	before := make([]string, len(dirs))
	for i, d := range dirs {
		if before[i], err = generatedDigest(d); err != nil {
			return result{}, err
		}
	}

	t, err := measureRounds(ctx, tg.dir, cmds, runs)
	if err != nil {
		return result{}, err
	}
	// The figures are those of unchanged modules only if no timed run
	// wrote a generated file.
	for i, d := range dirs {
		after, err := generatedDigest(d)
		if err != nil {
			return result{}, err
		}
		if after != before[i] {
			return result{}, fmt.Errorf("the generated files in %s changed during the timed runs: the figures are not those of an unchanged module", d)
		}
	}
	r := result{Name: tg.name, List: median(t[labelList]), Gen: median(t[labelGen]), Check: median(t[labelCheck]),
		Base: median(t[labelBase]), Dir: tg.dir, Generated: n}
	r.Ratio = r.Gen.Seconds() / r.List.Seconds()
	r.PerRound = pairedRatio(t[labelGen], t[labelList])
	fmt.Fprintf(out, "median and minimum of %d runs (warm cache, unchanged module):\n", runs)
	for _, c := range cmds {
		fmt.Fprintf(out, "  %-28s %s  min %s  %s\n", c.label, seconds(median(t[c.label])), seconds(slices.Min(t[c.label])), formatRuns(t[c.label]))
	}
	for _, c := range cmds[1:] {
		fmt.Fprintf(out, "  ratio %-22s median %.2f  min %.2f  per round %.2f\n", c.label+":", median(t[c.label]).Seconds()/r.List.Seconds(),
			slices.Min(t[c.label]).Seconds()/slices.Min(t[labelList]).Seconds(), pairedRatio(t[c.label], t[labelList]))
	}
	fmt.Fprintf(out, "ratio sentinelgen / go list: %.2f (%s the goal of %.1f)\n", r.Ratio, verdict(r.Ratio), goalRatio)
	return r, nil
}

// pairedRatio is the median over the rounds of a[i] / b[i]: two commands
// timed in one round saw much the same load, so on a busy machine their
// ratio within a round moves less than the ratio of their medians.
func pairedRatio(a, b []time.Duration) float64 {
	var rs []float64
	for i := range min(len(a), len(b)) {
		if b[i] > 0 {
			rs = append(rs, a[i].Seconds()/b[i].Seconds())
		}
	}
	if len(rs) == 0 {
		return 0
	}
	slices.Sort(rs)
	mid := len(rs) / 2
	if len(rs)%2 == 1 {
		return rs[mid]
	}
	return (rs[mid-1] + rs[mid]) / 2
}

// verdict says whether a ratio meets the goal.
func verdict(ratio float64) string {
	if ratio > goalRatio {
		return "MISSES"
	}
	return "meets"
}

// printSummary prints one line per module: the medians and the ratios.
func printSummary(out io.Writer, results []result, baseline bool) {
	fmt.Fprintf(out, "\nsummary (medians; goal: sentinelgen / go list at most %.1f)\n", goalRatio)
	fmt.Fprintf(out, "  %-22s %8s %8s %8s %6s %9s", "module", "go list", "gen", "check", "ratio", "per round")
	if baseline {
		fmt.Fprintf(out, " %8s %6s", "baseline", "ratio")
	}
	fmt.Fprintln(out)
	for _, r := range results {
		fmt.Fprintf(out, "  %-22s %8s %8s %8s %6.2f %9.2f", r.Name, seconds(r.List), seconds(r.Gen), seconds(r.Check), r.Ratio, r.PerRound)
		if baseline {
			fmt.Fprintf(out, " %8s %6.2f", seconds(r.Base), r.Base.Seconds()/r.List.Seconds())
		}
		fmt.Fprintf(out, "  %s\n", verdict(r.Ratio))
	}
}

// writeSynthetic writes the synthetic module under work, with a snapshot
// of the repository's runtime, and returns its directory.
func writeSynthetic(repo, work string, packages, methods int) (string, error) {
	snapshot, err := snapshotRuntime(repo, filepath.Join(work, "sentinelgen"))
	if err != nil {
		return "", fmt.Errorf("copying the runtime: %w", err)
	}
	mod := synthModule{Path: "example.com/genspeed", Packages: packages, Methods: methods, Repo: snapshot}
	dir := filepath.Join(work, "module")
	// Start from an empty module: a reused directory may hold packages of a
	// larger earlier run.
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := mod.write(dir); err != nil {
		return "", fmt.Errorf("writing the synthetic module: %w", err)
	}
	return dir, nil
}

// findRepo returns the directory of the sentinelgen module enclosing the
// working directory.
func findRepo(ctx context.Context) (string, error) {
	outb, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(outb))
	data, err := os.ReadFile(gomod)
	if gomod == "" || gomod == os.DevNull || err != nil {
		return "", errors.New("run genspeed inside the sentinelgen repository, or pass -repo")
	}
	if !strings.HasPrefix(string(data), "module "+sentinelModule+"\n") {
		return "", fmt.Errorf("%s is not the %s module; pass -repo", gomod, sentinelModule)
	}
	return filepath.Dir(gomod), nil
}

// generatedDigest hashes the names and contents of the generated files
// (sentinel_gen*.go) under dir.
func generatedDigest(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "sentinel_gen") || !strings.HasSuffix(d.Name(), ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

// countGenerated counts the sentinel_gen.go files under dir.
func countGenerated(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "sentinel_gen.go" {
			n++
		}
		return err
	})
	return n, err
}

// formatRuns lists every run's time, to show the spread behind a median.
func formatRuns(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = seconds(d)
	}
	return "(" + strings.Join(parts, " ") + ")"
}
