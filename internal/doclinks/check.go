package doclinks

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// lineAnchor is GitHub's anchor for a line or lines of a non-Markdown file.
var lineAnchor = regexp.MustCompile(`^L\d+(-L\d+)?$`)

// scheme matches a link that carries a URL scheme (https:, mailto:, ...).
var scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// checker checks the links of Markdown files below one repository root.
type checker struct {
	root    string
	anchors map[string]map[string]bool // Markdown file -> its anchors
	pkgs    map[string]*goPackage
	// pending lists files, relative to root, that another change adds: a
	// link to one of them is accepted while it is absent, and checked like
	// any other once it exists.
	pending map[string]bool
}

func newChecker(root string, pending ...string) *checker {
	c := &checker{root: root, anchors: map[string]map[string]bool{}, pkgs: map[string]*goPackage{}, pending: map[string]bool{}}
	for _, p := range pending {
		c.pending[filepath.FromSlash(p)] = true
	}
	return c
}

// file returns one message per broken link of the Markdown file rel
// (relative to the root), each starting with rel:line.
func (c *checker) file(rel string) ([]string, error) {
	src, err := os.ReadFile(filepath.Join(c.root, rel))
	if err != nil {
		return nil, err
	}
	links, anchors := scan(src)
	c.anchors[filepath.Clean(rel)] = anchors
	var problems []string
	for _, l := range links {
		if err := c.link(rel, l.target); err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: %s: %v", filepath.ToSlash(rel), l.line, l.target, err))
		}
	}
	return problems, nil
}

// link checks one link target written in the Markdown file from.
func (c *checker) link(from, target string) error {
	if scheme.MatchString(target) {
		return checkGoDev(c.root, target, c.pkgs)
	}
	p, frag, _ := strings.Cut(target, "#")
	p, err := url.PathUnescape(p)
	if err != nil {
		return err
	}
	dest := filepath.Clean(from) // a bare #anchor is in the same file
	if p != "" {
		if strings.HasPrefix(p, "/") {
			return fmt.Errorf("absolute path; write it relative to %s", filepath.ToSlash(from))
		}
		dest = filepath.Join(filepath.Dir(from), filepath.FromSlash(p))
		if dest == ".." || strings.HasPrefix(dest, ".."+string(filepath.Separator)) {
			return fmt.Errorf("leaves the repository")
		}
	}
	info, err := os.Stat(filepath.Join(c.root, dest))
	if err != nil {
		if os.IsNotExist(err) && c.pending[dest] {
			return nil
		}
		return fmt.Errorf("no such file or directory %s", filepath.ToSlash(dest))
	}
	if frag == "" {
		return nil
	}
	if info.IsDir() || !strings.HasSuffix(dest, ".md") {
		if !info.IsDir() && lineAnchor.MatchString(frag) {
			return nil
		}
		return fmt.Errorf("anchor #%s on %s, which is not a Markdown file", frag, filepath.ToSlash(dest))
	}
	anchors, ok := c.anchors[dest]
	if !ok {
		src, err := os.ReadFile(filepath.Join(c.root, dest))
		if err != nil {
			return err
		}
		_, anchors = scan(src)
		c.anchors[dest] = anchors
	}
	if !anchors[frag] {
		return fmt.Errorf("%s has no heading with anchor #%s", filepath.ToSlash(dest), frag)
	}
	return nil
}
