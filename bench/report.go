package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// Row is one line of the table: a figure of Kudos, the same figure of the
// baseline measured in the same run (when there is one), their ratio, and
// the target the issue sets (when it sets one). A missed target is shown,
// never turned into a failure.
type Row struct {
	Bench    string   `json:"bench"`
	Metric   string   `json:"metric"`
	Unit     string   `json:"unit"`
	Kudos    float64  `json:"kudos"`
	Baseline *float64 `json:"baseline,omitempty"`
	Ratio    *float64 `json:"ratio,omitempty"`
	Target   string   `json:"target,omitempty"`
	Met      *bool    `json:"met,omitempty"`
}

// figure is a row without baseline.
func figure(bench, metric, unit string, v float64) Row {
	return Row{Bench: bench, Metric: metric, Unit: unit, Kudos: v}
}

// compared is a row with a baseline; ratio is kudos/baseline.
func compared(bench, metric, unit string, kudos, baseline float64) Row {
	r := figure(bench, metric, unit, kudos)
	r.Baseline = &baseline
	if baseline != 0 {
		ratio := kudos / baseline
		r.Ratio = &ratio
	}
	return r
}

// perCPU is the row of ops per CPU-second of kudos and baseline (see
// CPUShare.PerCPUSecond), the noise-free twin of a throughput row.
func perCPU(bench, metric string, kudos, baseline CPUShare) Row {
	return compared(bench, metric, "/CPU-s", kudos.PerCPUSecond(), baseline.PerCPUSecond())
}

// target attaches a target and whether it was met.
func (r Row) target(text string, met bool) Row {
	r.Target, r.Met = text, &met
	return r
}

// Report is everything one run measured: the table, the machine it ran on,
// the options, and each benchmark's detailed figures.
type Report struct {
	Started time.Time      `json:"started"`
	Machine Machine        `json:"machine"`
	Options Options        `json:"options"`
	Rows    []Row          `json:"rows"`
	Details map[string]any `json:"details"`
	Errors  []string       `json:"errors,omitempty"`
}

// PrintTable writes the table in a fixed-width layout.
func (r *Report) PrintTable(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tfigure\tkudos\tbaseline\tratio\ttarget\t")
	fmt.Fprintln(tw, "---------\t------\t-----\t--------\t-----\t------\t")
	for _, cells := range r.cells("ok   ", "MISS ") {
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	_ = tw.Flush()
}

// cells are the table's rows as text: a benchmark's name only on its first
// row, and a target prefixed with met or missed.
func (r *Report) cells(met, missed string) [][]string {
	var out [][]string
	last := ""
	for _, row := range r.Rows {
		name := row.Bench
		if name == last {
			name = ""
		}
		last = row.Bench
		base, ratio, target := "", "", row.Target
		if row.Baseline != nil {
			base = formatValue(*row.Baseline, row.Unit)
		}
		if row.Ratio != nil {
			ratio = fmt.Sprintf("%.2f", *row.Ratio)
		}
		if row.Met != nil {
			target = map[bool]string{true: met, false: missed}[*row.Met] + target
		}
		out = append(out, []string{name, row.Metric, formatValue(row.Kudos, row.Unit), base, ratio, target})
	}
	return out
}

// formatValue prints a value with a precision that suits its size.
func formatValue(v float64, unit string) string {
	var s string
	switch {
	case v >= 100 || v == float64(int64(v)):
		s = fmt.Sprintf("%.0f", v)
	case v >= 10:
		s = fmt.Sprintf("%.1f", v)
	default:
		s = fmt.Sprintf("%.2f", v)
	}
	if unit != "" {
		s += " " + unit
	}
	return s
}

// WriteJSON writes the report to path, making its folder.
func (r *Report) WriteJSON(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// PrintMachine writes the machine lines that go above the table.
func (r *Report) PrintMachine(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "machine: %s, %d cores, %d MiB RAM, kernel %s, load average at start %s\n",
		m.CPUModel, m.Cores, m.MemoryMiB, m.Kernel, m.LoadAverage)
	fmt.Fprintf(w, "versions: %s, Postgres %s, Temporal server %s (CLI %s), Chromium %s\n",
		m.Go, m.Postgres, m.TemporalServer, strings.TrimSpace(m.TemporalCLI), m.Chromium)
}

// NewReport starts the report of a run with the local machine's facts.
func NewReport(o Options) *Report {
	return &Report{Started: time.Now().UTC(), Machine: localMachine(), Options: o, Details: map[string]any{}}
}

// Add records one benchmark's outcome: its rows, its details, its error.
func (r *Report) Add(name string, details any, rows []Row, err error) {
	r.Rows = append(r.Rows, rows...)
	r.Details[name] = details
	if err != nil {
		r.Errors = append(r.Errors, name+": "+err.Error())
	}
	if ui, ok := details.(*UIResult); ok && ui != nil {
		r.Machine.Chromium = ui.Chromium
	}
}

// WriteMarkdown writes the machine lines and the table as Markdown (the
// form docs/performance.md records a run in).
func (r *Report) WriteMarkdown(path string) error {
	var b strings.Builder
	m := r.Machine
	fmt.Fprintf(&b, "Run of %s UTC on %s, %d cores, %d MiB RAM, kernel %s (load average at start %s); %s, Postgres %s, Temporal server %s, Chromium %s.\n\n",
		r.Started.Format("2006-01-02 15:04"), m.CPUModel, m.Cores, m.MemoryMiB, m.Kernel, m.LoadAverage, m.Go, m.Postgres, m.TemporalServer, m.Chromium)
	b.WriteString("| benchmark | figure | kudos | baseline | ratio | target |\n|---|---|--:|--:|--:|---|\n")
	for _, cells := range r.cells("✅ ", "❌ ") {
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
