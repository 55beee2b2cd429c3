package ops

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText writes the report for a person: one section per part, tables
// aligned, times in UTC, the parts that could not be read named at the end.
func WriteText(out io.Writer, r *Report) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	a := r.Account
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("ACCOUNT %s  %q  created %s", a.ID, a.Name, ts(&a.CreatedAt))
	switch {
	case a.DeletedAt != nil:
		p("  DELETED %s (personal data erased; invoices and money events kept)", ts(a.DeletedAt))
	case a.DeletionAt != nil:
		p("  DELETION SCHEDULED for %s (workflow deletion:account:%s:%d; the owner can cancel until then)", ts(a.DeletionAt), a.ID, a.DeletionAt.Unix())
	}
	for _, m := range a.Members {
		p("  member\t%s\t%s\tactivated=%t", m.Email, m.Role, m.Activated)
		switch {
		case m.DeletionBlockedBy != nil:
			p("    user deletion BLOCKED, due %s (workflow deletion:user:%s:%d): they own %q; the erasure waits a day at a time "+
				"until they transfer or delete it, or cancel their deletion", ts(m.DeletionAt), m.UserID, m.DeletionAt.Unix(), *m.DeletionBlockedBy)
		case m.DeletionAt != nil:
			p("    user deletion scheduled for %s (workflow deletion:user:%s:%d)", ts(m.DeletionAt), m.UserID, m.DeletionAt.Unix())
		}
	}
	if s := a.Subscription; s != nil {
		p("\nREAD MODEL (subscriptions)")
		p("  plan %s, show_status %s, auto-renewal %t, trial expires %s, period started %s, renews %s",
			s.Plan, s.ShowStatus, s.StartNextPeriod, ts(s.TrialExpiresAt), ts(s.PeriodStartedAt), ts(s.PlanRenewalAt))
		if s.ExtraSeats > 0 {
			p("  extra seats %d (Team)", s.ExtraSeats)
		}
		if s.ScheduledAt != nil { // issue 38: a lower plan or fewer seats at the renewal
			plan, seats := "unchanged", "unchanged"
			if s.ScheduledPlan != nil {
				plan = string(*s.ScheduledPlan)
			}
			if s.ScheduledExtraSeats != nil {
				seats = fmt.Sprint(*s.ScheduledExtraSeats)
			}
			p("  scheduled for %s: plan %s, extra seats %s", ts(s.ScheduledAt), plan, seats)
		}
		if f := s.FailedPayment; f != nil {
			p("  renewal payment failing: invoice %s, %s, next attempt %s", f.InvoiceID, money(f.Amount.Amount, f.Amount.Currency), ts(s.PaymentRetryAt))
		}
		if d := s.Promotion; d != nil {
			p("  promotion %s", promotionLine(*d))
		}
	}

	p("\nSUBSCRIPTION WORKFLOW")
	if sw := r.Subscription; sw != nil {
		p("  %s  run %s  %s on %s, started %s", sw.ID, sw.RunID, sw.Status, sw.TaskQueue, ts(&sw.Start))
		if sw.PaymentState != "" {
			p("  PaymentState %s since %s", sw.PaymentState, ts(sw.PaymentStateSince))
		}
		if sw.DisputeOpen != nil {
			p("  DisputeOpen %t", *sw.DisputeOpen)
		}
	} else {
		p("  none")
	}
	if st := r.State; st != nil {
		p("  state: plan %s, status %s, auto-renew %t, renewal %s", st.Plan, st.Status, st.AutoRenew, ts(st.RenewalAt))
		if c := st.Checkout; c != nil {
			p("  open checkout %s (provider %s, %s %s), expires %s, settling=%t", c.ID, c.ProviderID, c.Purpose, c.Plan, ts(&c.ExpiresAt), c.Pending)
			if c.Pending && c.PendingSince != nil {
				p("    settling since %s, the provider is asked again %s", ts(c.PendingSince), ts(c.CheckAt))
			}
			if st.Owes(c.InvoiceID) {
				p("    it pays owed invoice %s: the plan is not changing, the account is not shown processing", c.InvoiceID)
			}
		}
		if pr := st.PendingRenewal; pr != nil {
			p("  renewal charge settling: renewal of %s (invoice %s, charge %s) since %s, asked again %s",
				ts(&pr.PeriodStart), pr.InvoiceID, pr.ChargeID, ts(&pr.Since), ts(&pr.CheckAt))
		}
		for _, rf := range st.Refunds {
			p("  refund refused for now: checkout %s (%s), first refused %s, next try %s", rf.CheckoutID, rf.Reason,
				ts(&rf.FirstRefusedAt), ts(&rf.RetryAt))
		}
		for _, d := range st.Disputes {
			p("  dispute open: %s of invoice %s (%s) since %s", d.ID, d.InvoiceID, money(d.Amount.Amount, d.Amount.Currency), ts(&d.OpenedAt))
		}
		if d := st.Due; d != nil {
			p("  due invoice %s (%s)", d.ID, d.Plan)
		}
		for _, o := range st.Owed {
			p("  owed invoice %s (%s): its debit came back, nothing retries it; the customer pays it from the invoices", o.ID, o.Plan)
		}
		if d := st.Promotion; d != nil {
			p("  promotion %s", promotionLine(*d))
		}
		if c := st.Checkout; c != nil && c.Promotion != nil {
			p("  open checkout priced with promotion %s", promotionLine(*c.Promotion))
		}
		if d := st.Dunning; d != nil {
			p("  dunning: renewal of %s (invoice %s, %s), %d failed attempt(s), next retry %s",
				ts(&d.PeriodStart), d.InvoiceID, money(d.Amount.Amount, d.Amount.Currency), d.Attempts, ts(&d.RetryAt))
		}
	}

	p("\nWORKFLOWS (AccountId)")
	if len(r.Workflows) == 0 {
		p("  none found")
	}
	for _, wf := range r.Workflows {
		p("  %s\t%s\t%s\tstarted %s\tclosed %s", wf.ID, wf.Type, wf.Status, ts(&wf.Start), ts(wf.Close))
		if wf.WorkflowTaskAttempt > 1 {
			p("    ! workflow task failing: attempt %d", wf.WorkflowTaskAttempt)
		}
		for _, pa := range wf.PendingActivities {
			p("    pending activity %s\t%s\tattempt %d\tlast failure: %s\tnext attempt %s", pa.Type, pa.State, pa.Attempt,
				orNone(pa.LastFailure), ts(pa.NextAttempt))
		}
	}

	p("\nOUTBOX (undelivered and dead letters)")
	if len(a.Outbox) == 0 {
		p("  none")
	}
	for _, e := range a.Outbox {
		state := "pending, next attempt " + ts(&e.NextAttemptAt)
		if e.LeasedUntil != nil && e.LeasedUntil.After(time.Now()) {
			state = "being delivered, leased until " + ts(e.LeasedUntil)
		}
		if e.DeadAt != nil {
			state = "DEAD since " + ts(e.DeadAt)
		}
		lastErr := ""
		if e.LastError != nil {
			lastErr = *e.LastError
		}
		p("  #%d\t%s\t%s\tattempts %d\t%s\tlast error: %s", e.ID, e.Kind, e.Key, e.Attempts, state, orNone(lastErr))
	}

	p("\nPAYMENT EVENTS (newest first)")
	if len(a.Events) == 0 {
		p("  none")
	}
	for _, e := range a.Events {
		movement := ""
		if e.Movement != "" { // issue 36: an off-session charge or a refund
			movement = "\t" + e.Movement
		}
		if e.Ledger != "" { // a dispute or a returned debit
			movement = "\t" + e.Ledger
		}
		p("  %s\t%s\t%s\tcheckout %s\toccurred %s\treceived %s\ttrace %s%s", e.EventID, e.Provider, e.Outcome, orNone(e.CheckoutID),
			ts(&e.OccurredAt), ts(&e.ReceivedAt), orNone(e.TraceID), movement)
	}
	p("\nCHECKOUTS")
	if len(a.Checkouts) == 0 {
		p("  none")
	}
	for _, c := range a.Checkouts {
		quote := ""
		if c.Quote != "" {
			quote = "\tquoted for " + c.Quote
		}
		p("  %s\t%s\t%s %s\tprovider %s %s\tcreated %s\texpires %s%s", c.ID, c.Status, c.Purpose, c.Plan, c.Provider, c.ProviderID,
			ts(&c.CreatedAt), ts(&c.ExpiresAt), quote)
	}
	p("\nINVOICES")
	if len(a.Invoices) == 0 {
		p("  none")
	}
	for _, i := range a.Invoices {
		number := "(no number)"
		if i.Number != nil {
			number = *i.Number
		}
		p("  %s\t%s\t%s %s\t%s\t%s\tVAT %g%% %s\tcreated %s\tpaid %s", i.ID, number, i.Kind, i.Plan, i.Status,
			money(i.Total, i.Currency), i.VATRate, i.VATRule, ts(&i.CreatedAt), ts(i.PaidAt))
	}
	if len(a.Refunds) > 0 {
		p("\nREFUNDS")
		for _, f := range a.Refunds {
			next := ""
			switch {
			case f.RetryAt != nil: // deferred: refused for now
				next = "\tnext try " + ts(f.RetryAt)
			case f.SettledByReturn != nil: // the bank gave the whole payment back
				returned := f.CheckoutID
				if f.OwedFrom != nil { // owed again from another payment, returned in its turn
					returned = *f.OwedFrom
				}
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): settled by the return of its payment " + returned +
					" (" + *f.SettledByReturn + ": the bank gave the customer the whole payment back): nothing owed, never refund it again"
			case f.SettledBy != nil && f.Status == "settled_by_dispute": // the network gave it back
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): settled by lost dispute " + *f.SettledBy +
					" (the card network gave the customer the money back): nothing owed"
			case f.FailedAt != nil && f.Repays == nil && f.Owed == 0: // repaid in full by refunds made again (and a lost dispute)
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): repaid in full by refunds made again: nothing owed"
				if f.SettledBy != nil {
					next += " (" + money(f.SettledAmount, f.Currency) + " of it settled by lost dispute " + *f.SettledBy + ")"
				}
			case f.SettledBy != nil:
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): " + money(f.SettledAmount, f.Currency) +
					" settled by lost dispute " + *f.SettledBy + ", " + money(f.Owed, f.Currency) + " still owed to the customer: pay it back outside the provider"
			case f.FailedAt != nil && f.OwedFrom != nil && f.Status == "failed": // returned, then its invoice paid again
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): its payment was returned by the bank and the invoice paid again by " +
					*f.OwedFrom + ": " + money(f.Owed, f.Currency) + " still owed to the customer, refund again from that payment (kudos ops refund --failed " + f.ID + ")"
			case f.FailedAt != nil && f.Repays != nil: // a refund made again failed too: its first refund is owed again
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): failed refund " + *f.Repays +
					" is owed again, refund it again (kudos ops refund --failed " + *f.Repays + ")"
				if f.Owed > 0 { // what it credited of its own, beyond what it repaid
					next += "; " + money(f.Owed, f.Currency) + " of its own still owed to the customer (kudos ops refund --failed " + f.ID + ")"
				}
			case f.FailedAt != nil: // the money did not go back: owed, refund its own payment again
				next = "\tfailed " + ts(f.FailedAt) + " (" + f.FailureReason + "): " + money(f.Owed, f.Currency) +
					" still owed to the customer, refund again (kudos ops refund --failed " + f.ID + ")"
			case f.Repays != nil:
				next = "\trepays failed refund " + *f.Repays
			}
			if f.Uncredited > 0 && f.Status == "refunded" { // beyond what its invoice had left to credit (a failed one paid nothing out)
				next += "\t" + money(f.Uncredited, f.Currency) + " paid out without a credit note (the invoice had less left to credit)"
			}
			p("  %s\tcheckout %s\t%s\t%s\t%s\t%s%s", f.ID, f.CheckoutID, money(f.Amount, f.Currency), strings.ToUpper(f.Status), f.Reason,
				ts(&f.CreatedAt), next)
		}
	}
	if len(a.Disputes) > 0 {
		p("\nDISPUTES")
		for _, d := range a.Disputes {
			invoice, closed, cn := "none", "", ""
			if d.InvoiceID != nil {
				invoice = d.InvoiceID.String()
			}
			if d.ClosedAt != nil {
				closed = "\tclosed " + ts(d.ClosedAt)
			}
			if d.CreditNoteID != nil {
				cn = "\tcredit note " + d.CreditNoteID.String()
			}
			p("  %s\tinvoice %s\tpayment %s\t%s\t%s\t%s\topened %s%s%s", d.ID, invoice, d.Payment, money(d.Amount, d.Currency),
				strings.ToUpper(d.Status), d.Reason, ts(&d.OpenedAt), closed, cn)
		}
	}
	p("\nBILLING TIMELINE (newest first)")
	if len(r.Timeline) == 0 {
		p("  none")
	}
	for _, e := range r.Timeline {
		amount := ""
		if e.Amount != nil {
			amount = money(*e.Amount, e.Currency)
		}
		invoice := ""
		switch {
		case e.InvoiceID != nil:
			invoice = "invoice " + e.InvoiceID.String()
		case e.Member != "":
			invoice = e.Member + " (" + e.Role + ")"
			if e.Actor != "" {
				invoice += " by " + e.Actor
			}
		}
		p("  %s\t%s\t%s\t%s\t%s", ts(&e.At), e.Type, e.Plan, amount, invoice)
	}
	if len(r.Unavailable) > 0 {
		p("\nNOT AVAILABLE")
		for _, u := range r.Unavailable {
			p("  %s", u)
		}
	}
	return w.Flush()
}

func ts(t *time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// money formats minor units: 46800 EUR → 468.00 EUR.
func money(minor int64, currency string) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%02d %s", sign, minor/100, minor%100, currency)
}
