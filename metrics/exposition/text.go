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
		// Piece by piece: concatenating each line first allocated it.
		for _, p := range []string{"# HELP ", f.Name, " ", helpEscaper.Replace(f.Help), "\n# TYPE ", f.Name, " ", typ, "\n"} {
			bw.WriteString(p)
		}
		var num []byte
		for _, s := range f.Samples {
			bw.WriteString(f.Name)
			if len(f.Labels) > 0 {
				bw.WriteByte('{')
				for i, l := range f.Labels {
					if i > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(l)
					bw.WriteString(`="`)
					_, _ = labelEscaper.WriteString(bw, s.Labels[i])
					bw.WriteByte('"')
				}
				bw.WriteByte('}')
			}
			bw.WriteByte(' ')
			num = appendValue(num[:0], s.Value)
			bw.Write(num)
			bw.WriteByte('\n')
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

func appendValue(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	case math.IsNaN(v):
		return append(b, "NaN"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// ServeHTTP answers a scrape with the families read now, in the text
// format, for programs that serve /metrics without client_golang.
func (x *Exporter) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	_ = WriteText(w, x.Families()) // a write error is the scraper gone
}
