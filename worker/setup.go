package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"
)

// SetupRetention is the history retention of a namespace `kudos temporal
// setup` registers: long enough to look into a closed workflow of last month.
const SetupRetention = 30 * 24 * time.Hour

// Setup makes a self-hosted Temporal cluster ready for Kudos (`kudos
// temporal setup`): it registers namespace when it does not exist, then the
// custom search attributes. Running it again changes nothing. Temporal Cloud
// refuses both through this API: there the namespace and the attributes are
// made with tcld (README, "Temporal in production").
func Setup(ctx context.Context, c client.Client, namespace string, log func(msg string, args ...any)) error {
	_, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	var notFound *serviceerror.NamespaceNotFound
	switch {
	case errors.As(err, &notFound):
		_, err = c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace: namespace, WorkflowExecutionRetentionPeriod: durationpb.New(SetupRetention),
			Description: "Kudos",
		})
		var exists *serviceerror.NamespaceAlreadyExists
		if err != nil && !errors.As(err, &exists) {
			return fmt.Errorf("register namespace %s: %w", namespace, err)
		}
		log("namespace registered", "namespace", namespace, "retention", SetupRetention)
	case err != nil:
		return fmt.Errorf("describe namespace %s: %w", namespace, err)
	default:
		log("namespace exists", "namespace", namespace)
	}
	// A namespace just registered reaches every frontend within seconds:
	// until then adding attributes answers NotFound.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = EnsureSearchAttributes(ctx, c, namespace)
		var nf *serviceerror.NotFound
		if err == nil || !(errors.As(err, &nf) || errors.As(err, &notFound)) || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	if err != nil {
		return err
	}
	log("search attributes ready", "namespace", namespace)
	return nil
}
