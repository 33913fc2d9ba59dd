package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// listFields are the fields of `go list -json` that the fast path reads;
// naming them lets the go command skip computing the others.
const listFields = "ImportPath,Name,Dir,GoFiles,CgoFiles,Export,DepOnly,Error,DepsErrors,Imports,ImportMap,Module"

// listedPackage is one package as `go list -json -export -deps` describes it.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	// Export is the compiler's export data file; empty when the package
	// (or one of its dependencies) failed to compile, and for unsafe.
	Export string
	// DepOnly is set for packages not matched by a pattern.
	DepOnly    bool
	Error      *listError
	DepsErrors []*listError
	// Imports are resolved import paths (vendoring applied); ImportMap maps
	// the paths written in source to them where the two differ.
	Imports   []string
	ImportMap map[string]string
	Module    *struct{ GoVersion string }
}

// listError is the go command's PackageError.
type listError struct {
	Pos string
	Err string
}

// packageList is the output of one go list run, and the go command's
// target architecture.
type packageList struct {
	all     []*listedPackage // in go list's order
	byPath  map[string]*listedPackage
	targets []*listedPackage // packages matched by the patterns, in go list's order
	goarch  string
}

// goList runs `go list -e -export -deps` on the patterns, the single go
// command run of the fast route. Its cost is the floor of the speed goal:
// it is what compiles (or finds in the build cache) the export data of
// every package.
func goList(cfg Config) (*packageList, error) {
	args := []string{"list", "-e", "-json=" + listFields, "-export", "-deps"}
	if len(cfg.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(cfg.Tags, ","))
	}
	args = append(args, "--")
	args = append(args, cfg.Patterns...)
	out, err := goCommand(cfg, args...)
	if err != nil {
		return nil, err
	}
	return decodeList(bytes.NewReader(out))
}

// goArch asks the go command for the architecture it builds for.
func goArch(cfg Config) (string, error) {
	out, err := goCommand(cfg, "env", "GOARCH")
	if err != nil {
		return "", err
	}
	arch := strings.TrimSpace(string(out))
	if arch == "" {
		return "", errors.New("go env GOARCH: empty")
	}
	return arch, nil
}

// goCommand runs the go command in cfg.Dir with cfg.Env and returns its
// standard output.
func goCommand(cfg Config, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = cfg.Dir
	cmd.Env = cfg.Env
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	if cfg.Dir != "" {
		// As go/packages does: an inherited PWD naming another directory
		// would otherwise be what the go command reports as Dir.
		if abs, err := filepath.Abs(cfg.Dir); err == nil {
			cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], "PWD="+abs)
		}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// decodeList reads the stream of JSON objects go list writes.
func decodeList(r io.Reader) (*packageList, error) {
	list := &packageList{byPath: map[string]*listedPackage{}}
	dec := json.NewDecoder(r)
	for {
		p := new(listedPackage)
		err := dec.Decode(p)
		if errors.Is(err, io.EOF) {
			return list, nil
		}
		if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		list.all = append(list.all, p)
		list.byPath[p.ImportPath] = p
		if !p.DepOnly {
			list.targets = append(list.targets, p)
		}
	}
}

// resolve maps an import path as written in p's source to the path of the
// package it denotes.
func (p *listedPackage) resolve(path string) string {
	if real, ok := p.ImportMap[path]; ok {
		return real
	}
	return path
}

// files returns the absolute names of p's Go files.
func (p *listedPackage) files() []string {
	names := make([]string, len(p.GoFiles))
	for i, f := range p.GoFiles {
		names[i] = filepath.Join(p.Dir, f)
	}
	return names
}
