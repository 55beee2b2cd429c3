// Package worker wires the Temporal worker of Kudos: it registers every
// workflow and activity on the task queue and makes sure the custom search
// attributes exist.
package worker

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"kudos/activities"
	"kudos/workflows"
)

// MainOptions are the worker options of the main task queue: subscriptions,
// mails, invitations and the reconciliation, I/O-bound work that must never queue behind
// CPU-heavy work. It keeps workflowTaskPollers polls open for workflow tasks
// and activityTaskPollers for activity tasks, and lets a workflow task wait
// stickyTimeout for this worker's cache.
var MainOptions = worker.Options{
	MaxConcurrentWorkflowTaskPollers: workflowTaskPollers,
	MaxConcurrentActivityTaskPollers: activityTaskPollers,
	StickyScheduleToStartTimeout:     stickyTimeout,
}

// workflowTaskPollers is how many workflow-task polls the main queue keeps
// open (the SDK's default is two). A payment event is an Update whose
// workflow task the server hands to a waiting poll; with two polls a burst
// of payments mostly found none waiting. With eight, the intake benchmark
// applied about 10 % more payments per second at a lower p99, and the
// Temporal server spent less CPU per payment (docs/performance.md, issue 12
// round 5). An open poll is an idle gRPC stream: cheap.
const workflowTaskPollers = 8

// activityTaskPollers is how many activity-task polls the main queue keeps
// open (the SDK's default is two). Each poll hands the worker one task, so
// two polls cap how fast a burst of activities starts, whatever the worker
// could run at once: in the renewal burst (1 000 renewals due in the same
// second) the charges waited 26 s (p50) for a poll with two, and the burst
// ran 2.6–3.5 times as fast with eight; the timer-workflow baseline on the
// same options twice as fast (docs/performance.md, issue 39 round 4).
const activityTaskPollers = 8

// stickyTimeout is how long a workflow task waits for this worker on its
// sticky queue before the server moves it to the main queue (the SDK's
// default is five seconds). In a burst (2 000 trials expiring in the same
// second) the tasks queue on the sticky queue of the worker that holds
// their workflows; after five seconds each one still waiting timed out, went
// to the main queue and was replayed from its whole history there: more
// server work for the same task, and the burst took 1.6 times as long
// (docs/performance.md, issue 39 round 4). A worker that stops gracefully
// tells the server (the SDK's ShutdownWorker), which then sends its tasks to
// the main queue at once, and the server sends new tasks there once a
// sticky queue has had no poller for ten seconds; only tasks already queued
// for a worker that crashed wait this long (an update then answers the api
// later, within its own timeout).
const stickyTimeout = 30 * time.Second

// LogoOptions are the worker options of the logo task queue: decoding and
// re-encoding images is CPU-bound, so a worker runs at most one per core and
// a burst of uploads waits in its own queue, not in front of billing.
var LogoOptions = worker.Options{
	MaxConcurrentActivityExecutionSize:     runtime.NumCPU(),
	MaxConcurrentWorkflowTaskExecutionSize: 4,
}

// Workers are the workers of one Kudos worker process: the main task queue
// (embedded: registrations go to it) and the logo task queue beside it,
// started and stopped together.
type Workers struct {
	worker.Worker
	// Logo polls workflows.LogoTaskQueue of the main queue.
	Logo worker.Worker
}

// New returns the workers polling taskQueue and its logo queue, with every
// workflow and activity registered. The main queue keeps the logo workflow
// too, so that logo runs started there before the queues were split finish.
// Start them with Start or Run.
func New(c client.Client, taskQueue string, acts *activities.Activities) *Workers {
	w := worker.New(c, taskQueue, MainOptions)
	w.RegisterWorkflow(workflows.Email)
	w.RegisterWorkflow(workflows.Subscription)
	w.RegisterWorkflow(workflows.Logo)
	w.RegisterWorkflow(workflows.Reconcile)
	w.RegisterWorkflow(workflows.ReconcileProvider)
	w.RegisterWorkflow(workflows.Invitation)
	w.RegisterWorkflow(workflows.DataExport)
	w.RegisterWorkflow(workflows.AccountDeletion)
	w.RegisterWorkflow(workflows.UserDeletion)
	w.RegisterWorkflow(workflows.VATCheck)
	w.RegisterWorkflow(workflows.ErasedPayment)
	w.RegisterActivity(acts)
	logo := worker.New(c, workflows.LogoTaskQueue(taskQueue), LogoOptions)
	logo.RegisterWorkflow(workflows.Logo)
	logo.RegisterActivity(acts)
	return &Workers{Worker: w, Logo: logo}
}

// Start starts both workers.
func (w *Workers) Start() error {
	if err := w.Worker.Start(); err != nil {
		return err
	}
	if err := w.Logo.Start(); err != nil {
		w.Worker.Stop()
		return err
	}
	return nil
}

// Stop stops both workers.
func (w *Workers) Stop() {
	w.Logo.Stop()
	w.Worker.Stop()
}

// Run runs both workers until interruptCh delivers.
func (w *Workers) Run(interruptCh <-chan any) error {
	if err := w.Start(); err != nil {
		return err
	}
	<-interruptCh
	w.Stop()
	return nil
}

// EnsureSearchAttributes registers the custom search attributes of
// workflows.SearchAttributes in namespace, when missing, and fails when one
// exists with another type. The development server gets them from the
// command line too; this makes any cluster an operator allows it on ready
// (`kudos temporal setup`, the development worker).
func EnsureSearchAttributes(ctx context.Context, c client.Client, namespace string) error {
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("list search attributes: %w", err)
	}
	missing := map[string]enumspb.IndexedValueType{}
	for _, sa := range workflows.SearchAttributes {
		typ, ok := have.CustomAttributes[sa.Name]
		switch {
		case !ok:
			missing[sa.Name] = sa.Type
		case typ != sa.Type:
			return fmt.Errorf("search attribute %s is registered in namespace %s as %s, Kudos needs %s: "+
				"a search attribute's type cannot be changed, remove it (temporal operator search-attribute remove) and run this again",
				sa.Name, namespace, typ, sa.Type)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace: namespace, SearchAttributes: missing,
	})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("add search attributes: %w", err)
	}
	return nil
}
