// Package prometheus exposes sentinelgen's statistics to Prometheus through
// client_golang: a Collector that reads them when the registry is scraped
// (Describe/Collect with constant metrics), so that no call pays anything
// for them. The families, their names and labels are those of package
// metrics/exposition; see its documentation and docs/observability.md.
//
//	s := metrics.New(metrics.Config{})
//	s.Start()
//	prometheus.MustRegister(sentinelprom.NewCollector(exposition.New(s)))
//
// No label names the process (pid, hostname): a restart then continues the
// same series, and the scrape's own target labels tell the instances apart.
package prometheus

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/sentinelgen/sentinelgen/metrics/exposition"
)

// Collector is a prometheus.Collector of an exposition.Exporter.
type Collector struct {
	x     *exposition.Exporter
	descs map[string]*prometheus.Desc
	kinds map[string]prometheus.ValueType
	order []string
}

// NewCollector returns a Collector reading x at every scrape.
func NewCollector(x *exposition.Exporter) *Collector {
	c := &Collector{x: x, descs: map[string]*prometheus.Desc{}, kinds: map[string]prometheus.ValueType{}}
	for _, f := range exposition.Descriptions() {
		c.descs[f.Name] = prometheus.NewDesc(f.Name, f.Help, f.Labels, nil)
		c.kinds[f.Name] = prometheus.CounterValue
		if f.Kind == exposition.Gauge {
			c.kinds[f.Name] = prometheus.GaugeValue
		}
		c.order = append(c.order, f.Name)
	}
	return c
}

// Describe sends the description of every family.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, name := range c.order {
		ch <- c.descs[name]
	}
}

// Collect reads the statistics and sends every series.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, f := range c.x.Families() {
		d, kind := c.descs[f.Name], c.kinds[f.Name]
		for _, s := range f.Samples {
			ch <- prometheus.MustNewConstMetric(d, kind, s.Value, s.Labels...)
		}
	}
}
