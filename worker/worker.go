// Package worker wires the Temporal worker of Kudos: it registers every
// workflow and activity on the task queue and makes sure the custom search
// attributes exist.
package worker

import (
	"context"
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"kudos/activities"
	"kudos/workflows"
)

// New returns a worker polling taskQueue with every workflow and activity
// registered. Start it with Run or Start.
func New(c client.Client, taskQueue string, acts *activities.Activities) worker.Worker {
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(workflows.Email)
	w.RegisterWorkflow(workflows.Subscription)
	w.RegisterWorkflow(workflows.Logo)
	w.RegisterWorkflow(workflows.Reconcile)
	w.RegisterActivity(acts)
	return w
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
