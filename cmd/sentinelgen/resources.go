package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// runResources prints the catalogue of declared resources:
//
//	sentinelgen resources [-json] [-o FILE] [-tags list] [packages]
//
// The table is for people; -json writes an array of annotate.CatalogEntry
// (fields name, package, function, file, line, blockHandler, fallback,
// defaultFallback, entryType, resourceType) for dashboards and rule
// editors. Files are relative to the working directory when below it.
// Exit status: 0 success, 1 when some package's directives do not check
// (their resources are missing; the diagnostics go to stderr), 2 usage
// errors, loader and write failures.
func runResources(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sentinelgen resources", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "write JSON instead of a table")
	out := fs.String("o", "", "write to `file` instead of stdout")
	tags := fs.String("tags", "", "comma-separated build tags for loading the packages")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sentinelgen resources [-json] [-o file] [-tags list] [packages]")
		fmt.Fprintln(stderr, "Lists the resources the packages (default ./...) declare.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, diags, err := annotate.Load("", patterns, annotate.Options{Tags: splitTags(*tags)})
	if err != nil {
		fmt.Fprintf(stderr, "sentinelgen resources: %v\n", err)
		return exitUsage
	}
	for _, d := range diags {
		fmt.Fprintln(stderr, d.String())
	}
	entries := annotate.Catalog(pkgs)
	for i := range entries {
		entries[i].File = relative(entries[i].File)
	}
	var buf bytes.Buffer
	if *asJSON {
		err = writeCatalogJSON(&buf, entries)
	} else {
		err = writeCatalogTable(&buf, entries)
	}
	if err == nil {
		if *out != "" {
			err = os.WriteFile(*out, buf.Bytes(), 0o644)
		} else {
			_, err = stdout.Write(buf.Bytes())
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "sentinelgen resources: %v\n", err)
		return exitUsage
	}
	if len(diags) > 0 {
		return exitProblems
	}
	return exitOK
}

// writeCatalogJSON writes entries as an indented JSON array ([] when empty).
func writeCatalogJSON(w io.Writer, entries []annotate.CatalogEntry) error {
	if entries == nil {
		entries = []annotate.CatalogEntry{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(entries)
}

// writeCatalogTable writes entries as aligned columns, "-" for a missing
// handler.
func writeCatalogTable(w io.Writer, entries []annotate.CatalogEntry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RESOURCE\tFUNCTION\tLOCATION\tBLOCKHANDLER\tFALLBACK\tDEFAULTFALLBACK\tENTRY\tTYPE")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			e.Name, e.Function, e.File+":"+strconv.Itoa(e.Line),
			orDash(e.BlockHandler), orDash(e.Fallback), orDash(e.DefaultFallback), e.EntryType, e.ResourceType)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
