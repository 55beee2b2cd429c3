package api

import (
	"context"
	"encoding/json"
	"fmt"

	"kudos/dispatch"
	"kudos/store"
)

// Deliver is the outbox relay's DeliverFunc: the api's own queued work (a
// reset or activation link asked for: issuePasswordReset,
// issueActivation) it does itself; every other entry goes to Temporal
// through the Dispatcher.
func (s *Server) Deliver(ctx context.Context, row store.OutboxRow) error {
	issue := map[string]func(context.Context, dispatch.ResetRequest) error{
		dispatch.KindPasswordResetRequest: s.issuePasswordReset,
		dispatch.KindActivationRequest:    s.issueActivation,
	}[row.Kind]
	if issue == nil {
		return s.Dispatcher.Deliver(ctx, row)
	}
	var req dispatch.ResetRequest
	if err := json.Unmarshal(row.Payload, &req); err != nil {
		return dispatch.Permanent(fmt.Errorf("outbox %s: %w", row.Key, err))
	}
	return issue(ctx, req)
}
