package app

import (
	"io"
	"log/slog"
	"time"
	"unicode"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	"go.temporal.io/sdk/client"
	sdktally "go.temporal.io/sdk/contrib/tally"
)

// temporalLatencyBuckets are the buckets (seconds) of the SDK's latencies:
// schedule-to-start, task and activity execution.
var temporalLatencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// sanitize keeps metric names and label keys to Prometheus's characters and
// label values as they are (a task queue named kudos-logo stays kudos-logo,
// so alerts and dashboards use the names the README gives).
var sanitize = tally.SanitizeOptions{
	NameCharacters:       tallyprom.DefaultSanitizerOpts.NameCharacters,
	KeyCharacters:        tallyprom.DefaultSanitizerOpts.KeyCharacters,
	ValueCharacters:      tally.ValidCharacters{Ranges: []tally.SanitizeRange{{' ', unicode.MaxRune}}},
	ReplacementCharacter: tally.DefaultReplacementCharacter,
}

// TemporalMetrics is the Temporal SDK's metrics handler, exporting into reg
// under the SDK's own names prefixed `temporal_` (Prometheus style: counters
// end in _total, latencies are histograms in _seconds), e.g.
// temporal_workflow_task_execution_failed_total,
// temporal_activity_execution_failed_total,
// temporal_activity_schedule_to_start_latency_seconds. Give it to the
// client (client.Options.MetricsHandler); close the returned closer at the
// end to flush.
func TemporalMetrics(reg prometheus.Registerer, log *slog.Logger) (client.MetricsHandler, io.Closer) {
	reporter := tallyprom.NewReporter(tallyprom.Options{
		Registerer:              reg,
		DefaultTimerType:        tallyprom.HistogramTimerType,
		DefaultHistogramBuckets: temporalLatencyBuckets,
		OnRegisterError: func(err error) {
			log.Warn("a Temporal SDK metric could not be registered", "err", err)
		},
	})
	scope, closer := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:  reporter,
		Separator:       tallyprom.DefaultSeparator,
		SanitizeOptions: &sanitize,
	}, time.Second)
	return sdktally.NewMetricsHandler(sdktally.NewPrometheusNamingScope(scope)), closer
}
