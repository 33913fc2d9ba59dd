package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// runResources prints the catalogue of declared resources:
//
//	sentinelgen resources [-json] [-o FILE] [-tags list] [-v] [packages]
//
// The table is for people; -json writes an array of annotate.CatalogEntry
// (fields name, package, function, file, line, blockHandler, fallback,
// defaultFallback, entryType, resourceType) for dashboards and rule
// editors. Files are relative to the working directory when below it.
// Exit status: 0 success, 1 when some package's directives do not check
// (their resources are missing; the diagnostics go to stderr), 2 usage
// errors, loader and write failures.
func runResources(args []string, stdout, stderr io.Writer) int {
	c := newCommand("sentinelgen resources", stderr, []string{
		"usage: sentinelgen resources [-json] [-o file] [-tags list] [-v] [packages]",
		"Lists the resources the packages (default: the one in the current directory) declare.",
	}, nil)
	asJSON := c.flags.Bool("json", false, "write JSON instead of a table")
	out := c.flags.String("o", "", "write to `file` instead of stdout")
	if status, ok := c.parse(args); !ok {
		return status
	}
	pkgs, diags, ok := c.load(c.patterns(), printCode)
	if !ok {
		return exitUsage
	}
	entries := annotate.Catalog(pkgs)
	for i := range entries {
		entries[i].File = relative(entries[i].File)
	}
	var buf bytes.Buffer
	var err error
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
		c.errorf("%v", err)
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
