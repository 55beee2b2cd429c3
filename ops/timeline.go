package ops

import (
	"context"

	"github.com/google/uuid"

	"kudos"
)

// TimelineReader reads an account's billing timeline, newest first
// (*store.DB).
type TimelineReader interface {
	BillingTimeline(ctx context.Context, accountID uuid.UUID, limit int, before *kudos.TimelineCursor, types ...kudos.BillingEventType) ([]kudos.BillingEvent, error)
}

// StoreTimeline is the report's timeline read from the billing_events
// table: the account's newest limit events.
func StoreTimeline(db TimelineReader) TimelineHook {
	return func(ctx context.Context, accountID uuid.UUID, limit int) ([]TimelineEntry, error) {
		events, err := db.BillingTimeline(ctx, accountID, limit, nil)
		if err != nil {
			return nil, err
		}
		out := make([]TimelineEntry, len(events))
		for i, e := range events {
			out[i] = TimelineEntry{At: e.At, Type: string(e.Type), Plan: string(e.Plan), Amount: e.Amount, Currency: e.Currency,
				InvoiceID: e.InvoiceID, Member: e.MemberEmail, Role: string(e.Role), Actor: e.ActorEmail}
		}
		return out, nil
	}
}
