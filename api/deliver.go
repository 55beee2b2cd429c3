package api

import (
	"context"
	"encoding/json"
	"fmt"

	"kudos/dispatch"
	"kudos/store"
)

// Deliver is the outbox relay's DeliverFunc: the api's own queued work (a
// reset link asked for: issuePasswordReset) it does itself; every other
// entry goes to Temporal through the Dispatcher.
func (s *Server) Deliver(ctx context.Context, row store.OutboxRow) error {
	if row.Kind != dispatch.KindPasswordResetRequest {
		return s.Dispatcher.Deliver(ctx, row)
	}
	var req dispatch.ResetRequest
	if err := json.Unmarshal(row.Payload, &req); err != nil {
		return dispatch.Permanent(fmt.Errorf("outbox %s: %w", row.Key, err))
	}
	return s.issuePasswordReset(ctx, req)
}
