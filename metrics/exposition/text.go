package exposition

import (
	"bufio"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// ContentType is the media type of WriteText's output: Prometheus's text
// exposition format 0.0.4.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// WriteText writes fams in Prometheus's text exposition format. Families
// without samples are left out, as client_golang leaves them out.
func WriteText(w io.Writer, fams []Family) error {
	bw := bufio.NewWriter(w)
	for _, f := range fams {
		if len(f.Samples) == 0 {
			continue
		}
		typ := "counter"
		if f.Kind == Gauge {
			typ = "gauge"
		}
		bw.WriteString("# HELP " + f.Name + " " + helpEscaper.Replace(f.Help) + "\n")
		bw.WriteString("# TYPE " + f.Name + " " + typ + "\n")
		for _, s := range f.Samples {
			bw.WriteString(f.Name)
			if len(f.Labels) > 0 {
				bw.WriteByte('{')
				for i, l := range f.Labels {
					if i > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(l + `="` + labelEscaper.Replace(s.Labels[i]) + `"`)
				}
				bw.WriteByte('}')
			}
			bw.WriteString(" " + formatValue(s.Value) + "\n")
		}
	}
	return bw.Flush()
}

// The text format's escapes: help text escapes backslash and newline,
// label values also the double quote.
var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ServeHTTP answers a scrape with the families read now, in the text
// format, for programs that serve /metrics without client_golang.
func (x *Exporter) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	_ = WriteText(w, x.Families()) // a write error is the scraper gone
}
