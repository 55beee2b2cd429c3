package ops

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/workflows"
)

// StuckCheckoutAge is how long a checkout may stay open before
// kudos_checkouts_stuck counts it (the runbook's "checkout open for over an
// hour").
const StuckCheckoutAge = time.Hour

// paymentStates are the PaymentState values counted.
var paymentStates = []string{workflows.PaymentNone, workflows.PaymentCheckoutOpen, workflows.PaymentDue, workflows.PaymentRetrying,
	workflows.PaymentPending}

// paymentStateCollector exports what the runbook's queries count, from
// Temporal's visibility: running subscription workflows per PaymentState and
// the checkouts stuck open. Counting asks Temporal, so a scrape reuses the
// last answer for CacheFor.
type paymentStateCollector struct {
	c      client.Client
	scope  string
	cache  time.Duration
	states *prometheus.Desc
	stuck  *prometheus.Desc
	// settling counts payments settling for longer than their limit (a
	// renewal charge the provider would not cancel).
	settling *prometheus.Desc

	mu      sync.Mutex
	at      time.Time
	metrics []prometheus.Metric
}

// NewPaymentStateCollector returns the collector of kudos_payment_state_workflows
// {state} and kudos_checkouts_stuck. scope, when set, is ANDed to every
// query (tests use a task queue of their own); answers are reused for
// cacheFor.
func NewPaymentStateCollector(c client.Client, scope string, cacheFor time.Duration) prometheus.Collector {
	return &paymentStateCollector{c: c, scope: scope, cache: cacheFor,
		states: prometheus.NewDesc("kudos_payment_state_workflows",
			"Running subscription workflows per PaymentState search attribute.", []string{"state"}, nil),
		stuck: prometheus.NewDesc("kudos_checkouts_stuck",
			"Subscription workflows whose checkout has been open for over an hour (PaymentStateSince).", nil, nil),
		settling: prometheus.NewDesc("kudos_payments_settling_too_long",
			"Subscription workflows whose payment has been settling (PaymentState pending) for longer than KUDOS_PENDING_LIMIT's default.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (p *paymentStateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- p.states
	ch <- p.stuck
	ch <- p.settling
}

// Collect implements prometheus.Collector; when Temporal does not answer in
// time the gauges are left out of the scrape.
func (p *paymentStateCollector) Collect(ch chan<- prometheus.Metric) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.metrics == nil || time.Since(p.at) >= p.cache {
		if m, err := p.count(); err == nil {
			p.metrics, p.at = m, time.Now()
		}
	}
	for _, m := range p.metrics {
		ch <- m
	}
}

func (p *paymentStateCollector) count() ([]prometheus.Metric, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var out []prometheus.Metric
	for _, state := range paymentStates {
		n, err := p.countWhere(ctx, fmt.Sprintf("%s = %q", workflows.SearchPaymentState, state))
		if err != nil {
			return nil, err
		}
		out = append(out, prometheus.MustNewConstMetric(p.states, prometheus.GaugeValue, float64(n), state))
	}
	for _, g := range []struct {
		desc  *prometheus.Desc
		state string
		age   time.Duration
	}{{p.stuck, workflows.PaymentCheckoutOpen, StuckCheckoutAge}, {p.settling, workflows.PaymentPending, kudos.DefaultPendingLimit}} {
		n, err := p.countWhere(ctx, fmt.Sprintf("%s = %q AND %s < %q", workflows.SearchPaymentState, g.state,
			workflows.SearchPaymentStateSince, time.Now().Add(-g.age).UTC().Format(time.RFC3339)))
		if err != nil {
			return nil, err
		}
		out = append(out, prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, float64(n)))
	}
	return out, nil
}

func (p *paymentStateCollector) countWhere(ctx context.Context, where string) (int64, error) {
	q := `ExecutionStatus = "Running" AND ` + where
	if p.scope != "" {
		q += " AND " + p.scope
	}
	res, err := p.c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: q})
	if err != nil {
		return 0, err
	}
	return res.Count, nil
}
