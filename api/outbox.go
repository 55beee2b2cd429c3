package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// OutboxDelivery returns the relay's delivery function: each outbox kind
// becomes a workflow start (or, later, a signal). Workflow ids derive from
// the entry's key, so delivering an entry twice starts one workflow.
func OutboxDelivery(c client.Client, taskQueue string) store.DeliverFunc {
	return func(ctx context.Context, kind, key string, payload []byte) error {
		switch kind {
		case store.OutboxMail:
			var req kudos.MailRequest
			if err := json.Unmarshal(payload, &req); err != nil {
				return fmt.Errorf("outbox %s: %w", key, err)
			}
			_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
				ID: workflows.EmailWorkflowID(req), TaskQueue: taskQueue,
				WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
				WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
			}, workflows.Email, req)
			var started *serviceerror.WorkflowExecutionAlreadyStarted
			if errors.As(err, &started) {
				return nil
			}
			return err
		default:
			return fmt.Errorf("outbox %s: unknown kind %q", key, kind)
		}
	}
}
