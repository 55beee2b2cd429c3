package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// ReadModel is the part of the store the dispatcher reads (*store.DB): a
// subscription workflow that does not run is started from its row, and a
// mail's workflow carries the AccountId of its recipient.
type ReadModel interface {
	SubscriptionReadModel(ctx context.Context, accountID uuid.UUID) (*kudos.SubscriptionReadModel, error)
	AccountIDsByEmail(ctx context.Context, email string) ([]uuid.UUID, error)
	AccountErased(ctx context.Context, accountID uuid.UUID) (bool, error)
}

// Dispatcher hands work to Temporal: the outbox relay's deliveries and the
// subscription updates of the api. Workflow ids derive from the entry or the
// account, so a second delivery starts nothing new.
type Dispatcher struct {
	Temporal    client.Client
	TaskQueue   string
	DB          ReadModel
	Period      time.Duration
	CheckoutTTL time.Duration
	// Lifecycle are the reminder and dunning timings a workflow starts with.
	Lifecycle kudos.Lifecycle
	// VATCheckRetry is the first wait of a VAT-id check's retries (0:
	// workflows.VATCheckFirstRetry).
	VATCheckRetry time.Duration
	// VATCheckLimit is how long a VAT-id check asks VIES before it gives
	// up (0: workflows.VATCheckLimit).
	VATCheckLimit time.Duration
	// UpdateTimeout is how long Update waits for the workflow's answer
	// before it gives up with 503 (0: DefaultUpdateTimeout).
	UpdateTimeout time.Duration
}

// DefaultUpdateTimeout is how long Update waits for a subscription
// workflow's answer by default: long enough for a worker that restarts
// (its sticky queue handed on, the run replayed), short enough that a
// customer sees "try again in a moment" rather than a hung request.
const DefaultUpdateTimeout = 20 * time.Second

// Deliver is the relay's DeliverFunc.
func (d *Dispatcher) Deliver(ctx context.Context, row store.OutboxRow) error {
	key, payload := row.Key, row.Payload
	switch row.Kind {
	case KindMail:
		var req kudos.MailRequest
		if err := json.Unmarshal(payload, &req); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", key, err))
		}
		sa, err := d.mailSearchAttributes(ctx, req)
		if err != nil {
			return err
		}
		req.WorkflowVersion = workflows.EmailVersion // the run records no version marker
		return d.startOnce(ctx, workflows.EmailWorkflowID(req), sa, workflows.Email, req)
	case KindSubscriptionStart:
		var in accountPayload
		if err := json.Unmarshal(payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", key, err))
		}
		opts, state, err := d.startOptions(ctx, in.AccountID)
		if kudos.ErrorCode(err) == kudos.ENotFound { // erased since (or never there): no run for it, ever
			return nil
		} else if err != nil {
			return err
		}
		_, err = d.Temporal.ExecuteWorkflow(ctx, opts, workflows.Subscription, state)
		return err
	case KindPaymentEvent:
		var ev kudos.PaymentEvent
		if err := json.Unmarshal(payload, &ev); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", key, err))
		}
		return d.deliverPaymentEvent(ctx, row.Key, ev)
	case KindLogoStart:
		var in logoPayload
		if err := json.Unmarshal(payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", key, err))
		}
		// One upload at a time per account: while an earlier run still
		// finishes, this start fails and the relay tries again later. A
		// repeated start of a finished upload finds its object gone and
		// changes nothing.
		_, err := d.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID: workflows.LogoWorkflowID(in.AccountID), TaskQueue: workflows.LogoTaskQueue(d.TaskQueue),
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
			// Without this the SDK answers the running run, and this
			// upload would never be processed.
			WorkflowExecutionErrorWhenAlreadyStarted: true,
			TypedSearchAttributes:                    temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(in.AccountID.String())),
		}, workflows.Logo, workflows.LogoInput{AccountID: in.AccountID, TempKey: in.TempKey})
		return err
	case KindVATCheckStart:
		var in workflows.VATCheckInput
		if err := json.Unmarshal(payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", key, err))
		}
		if in.Retry == 0 {
			in.Retry = d.VATCheckRetry
		}
		if in.Limit == 0 {
			in.Limit = d.VATCheckLimit
		}
		// The newest save's check replaces a running one (whose result
		// would be stale anyway). A second delivery of this entry starts it
		// over, which writes the same result at most once.
		_, err := d.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID: workflows.VATCheckWorkflowID(in.AccountID), TaskQueue: d.TaskQueue,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING,
			TypedSearchAttributes:    temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(in.AccountID.String())),
		}, workflows.VATCheck, in)
		return err
	case KindQuoteChanged:
		// A workflow that does not run has no open checkout to close.
		return d.tell(ctx, row.WorkflowID, key, workflows.UpdateQuoteChanged)
	case KindInvitationStart, KindInvitationUpdate:
		return d.deliverInvitation(ctx, row)
	case KindDeletionStart, KindDeletionCancel, KindUserDeletionStart, KindUserDeletionCancel, KindDeletionUnlock:
		return d.deliverDeletion(ctx, row)
	case KindExportStart:
		var in workflows.ExportInput
		if err := json.Unmarshal(payload, &in); err != nil {
			return Permanent(fmt.Errorf("outbox %s: %w", key, err))
		}
		return d.startOnce(ctx, workflows.ExportWorkflowID(in.ExportID), temporal.SearchAttributes{}, workflows.DataExport, in)
	default:
		return Permanent(fmt.Errorf("outbox %s: unknown kind %q", key, row.Kind))
	}
}

// startOnce starts the workflow id once: a second delivery of the entry
// finds it running, or ended, and is done (the id is never reused).
func (d *Dispatcher) startOnce(ctx context.Context, id string, sa temporal.SearchAttributes, wf, arg any) error {
	_, err := d.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: d.TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		TypedSearchAttributes:    sa,
	}, wf, arg)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}

// tell sends a workflow an update about a change Postgres already holds,
// waited for until accepted; the update id is the outbox key, so a retried
// delivery is answered, not applied again. A workflow that has ended has
// nothing left to hear.
func (d *Dispatcher) tell(ctx context.Context, workflowID, updateID, name string, args ...any) error {
	_, err := d.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflowID, UpdateID: updateID, UpdateName: name,
		Args: args, WaitForStage: client.WorkflowUpdateStageAccepted})
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return nil
	}
	return err
}

// deliverPaymentEvent hands a payment event to the account's subscription
// workflow as an update (its id the outbox key) and returns once the
// workflow has accepted it, which records it in the history: only then may
// the entry count as delivered. Until a worker takes it the call waits, and
// a timeout leaves the entry for the relay's next try, which the server
// answers from the same update (its id) instead of applying it again.
// The workflow almost always runs: the read model is read to start it only
// when it does not.
//
// A payment event of an erased account never reaches a subscription
// workflow (one may still run for a few seconds after the erasure): the
// ErasedPayment workflow refunds it instead (issue 34).
func (d *Dispatcher) deliverPaymentEvent(ctx context.Context, key string, ev kudos.PaymentEvent) error {
	erased, err := d.DB.AccountErased(ctx, ev.AccountID)
	if kudos.ErrorCode(err) == kudos.ENotFound { // no such account here: nothing will change that, no 50 tries
		return Permanent(err)
	} else if err != nil {
		return err
	}
	if erased {
		// Once per event; a run that did not complete (terminated) is run
		// again when the reconciliation delivers the event again.
		_, err := d.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID: workflows.ErasedPaymentWorkflowID(ev), TaskQueue: d.TaskQueue,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
			TypedSearchAttributes:    temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(ev.AccountID.String())),
		}, workflows.ErasedPayment, ev)
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if errors.As(err, &started) {
			return nil
		}
		return err
	}
	upd := client.UpdateWorkflowOptions{WorkflowID: workflows.SubscriptionWorkflowID(ev.AccountID), UpdateID: key,
		UpdateName: workflows.UpdatePaymentEvent, Args: []any{ev}, WaitForStage: client.WorkflowUpdateStageAccepted}
	_, err = d.Temporal.UpdateWorkflow(ctx, upd)
	var notFound *serviceerror.NotFound
	if !errors.As(err, &notFound) {
		return err
	}
	opts, state, err := d.startOptions(ctx, ev.AccountID)
	if err != nil {
		return err
	}
	upd.WorkflowID = "" // Update-with-Start takes it from the start
	_, err = d.Temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: d.Temporal.NewWithStartWorkflowOperation(opts, workflows.Subscription, state), UpdateOptions: upd})
	return err
}

// startOptions are the options and first state of an account's subscription
// workflow, rebuilt from the read model: an existing run is used as it is.
func (d *Dispatcher) startOptions(ctx context.Context, accountID uuid.UUID) (client.StartWorkflowOptions, kudos.SubscriptionState, error) {
	rec, err := d.DB.SubscriptionReadModel(ctx, accountID)
	if err != nil {
		return client.StartWorkflowOptions{}, kudos.SubscriptionState{}, err
	}
	now := time.Now()
	state := kudos.StateFromRecord(accountID, *rec, d.Period, d.CheckoutTTL, d.Lifecycle, now)
	workflows.StampPaymentState(&state, now)
	state.LifecycleVersion = workflows.LifecycleVersion // the run records no version markers
	return client.StartWorkflowOptions{
		ID: workflows.SubscriptionWorkflowID(accountID), TaskQueue: d.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			workflows.AccountIDKey.ValueSet(accountID.String()),
			workflows.PlanKey.ValueSet(string(state.Plan)),
			workflows.SubscriptionStatusKey.ValueSet(string(state.DisplayStatus())),
			workflows.PaymentStateKey.ValueSet(workflows.PaymentStateOf(&state)),
			workflows.PaymentStateSinceKey.ValueSet(*state.PaymentStateSince)),
	}, state, nil
}

// mailSearchAttributes are those of a mail's workflow: the AccountId of the
// account a billing or team mail is about, else of its recipient's account (the one
// they own first), so that the runbook's
// `AccountId = "…"` lists an account's mails too. A mail to an address no
// user has yet (an e-mail change being confirmed) carries none.
func (d *Dispatcher) mailSearchAttributes(ctx context.Context, req kudos.MailRequest) (temporal.SearchAttributes, error) {
	if req.Billing != nil && req.Billing.AccountID != uuid.Nil { // a billing mail names its account
		return temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(req.Billing.AccountID.String())), nil
	}
	if req.Team != nil && req.Team.AccountID != uuid.Nil { // so does a team mail
		return temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(req.Team.AccountID.String())), nil
	}
	if req.To == "" {
		return temporal.SearchAttributes{}, nil
	}
	ids, err := d.DB.AccountIDsByEmail(ctx, req.To)
	if err != nil || len(ids) == 0 {
		return temporal.SearchAttributes{}, err
	}
	return temporal.NewSearchAttributes(workflows.AccountIDKey.ValueSet(ids[0].String())), nil
}

// Update sends an update to the account's subscription workflow, starting
// the workflow first if it does not run (Update-with-Start), and waits for
// its result. Rejections become 409/422 answers; Temporal being unreachable
// becomes 503. A run that ends while it handles the update (an operator
// terminated it) is rebuilt from the read model and given the update again,
// under the same update id, from which the workflow derives what the update
// opens: one checkout, whichever run opens it.
func (d *Dispatcher) Update(ctx context.Context, accountID uuid.UUID, name string, arg, result any) error {
	return d.UpdateAs(ctx, accountID, uuid.NewString(), name, arg, result)
}

// UpdateAs is Update under update id id: an update sent under the same id
// before (by the outbox relay) is answered from that one, not applied
// again.
func (d *Dispatcher) UpdateAs(ctx context.Context, accountID uuid.UUID, id, name string, arg, result any) error {
	timeout := d.UpdateTimeout
	if timeout <= 0 {
		timeout = DefaultUpdateTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := d.update(ctx, accountID, id, name, arg, result)
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == errTypeUpdateRunEnded {
		err = d.update(ctx, accountID, id, name, arg, result)
	}
	return updateError(err)
}

// errTypeUpdateRunEnded is the SDK's error type of an update whose run
// ended (terminated) after accepting it and before completing it.
const errTypeUpdateRunEnded = "AcceptedUpdateCompletedWorkflow"

// update is one try of Update.
func (d *Dispatcher) update(ctx context.Context, accountID uuid.UUID, id, name string, arg, result any) error {
	opts, state, err := d.startOptions(ctx, accountID)
	if err != nil {
		return err
	}
	start := d.Temporal.NewWithStartWorkflowOperation(opts, workflows.Subscription, state)
	handle, err := d.Temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{
			UpdateID: id, UpdateName: name, Args: updateArgs(arg), WaitForStage: client.WorkflowUpdateStageCompleted,
		},
	})
	if err == nil {
		err = handle.Get(ctx, result)
	}
	return err
}

// updateError maps what Temporal answered to the error model.
// providerRefusedMessage is what the client is told when the payment
// provider refused a request for good (422): the provider's own words and
// our ids stay in the workflow's history, for operators.
const providerRefusedMessage = "The payment provider refused this request. Please check your billing details and try again, or contact support."

func updateError(err error) error {
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		switch app.Type() {
		case workflows.ErrTypeInvalidPlan:
			return &kudos.Error{Code: kudos.EInvalid, Message: app.Message(), Fields: map[string]string{"plan": kudos.FInvalidValue}}
		case workflows.ErrTypeInvalidSeats:
			return &kudos.Error{Code: kudos.EInvalid, Message: app.Message(), Fields: map[string]string{"seats": kudos.FInvalidValue}}
		case workflows.ErrTypeInvalidTransition:
			return kudos.Errorf(kudos.EConflict, "%s", app.Message())
		case workflows.ErrTypeAccountBeingDeleted:
			return kudos.Errorf(kudos.EAccountBeingDeleted, "%s", app.Message())
		case workflows.ErrTypePriceChanged:
			return kudos.Errorf(kudos.EPriceChanged, "%s", app.Message())
		case workflows.ErrTypeProviderRefused: // its message is the adapter's error, for the history
			return kudos.Errorf(kudos.EInvalid, "%s", providerRefusedMessage)
		case workflows.ErrTypeSeatLimit:
			return kudos.SeatLimitError(app.Message())
		case workflows.ErrTypeInvalidPromotion:
			why := kudos.FPromotionUnknown
			_ = app.Details(&why)
			return kudos.FieldErrors{"promotion_code": why}.Err()
		}
	}
	var timeout *temporal.TimeoutError
	if errors.As(err, &timeout) { // the provider did not answer in time
		return kudos.Errorf(kudos.EUnavailable, "payments are unavailable right now, please try again in a moment")
	}
	var unavailable *serviceerror.Unavailable
	var deadline *serviceerror.DeadlineExceeded
	if errors.As(err, &unavailable) || errors.As(err, &deadline) || errors.Is(err, context.DeadlineExceeded) {
		return kudos.Errorf(kudos.EUnavailable, "payments are unavailable right now, please try again in a moment")
	}
	return err
}

// updateArgs are the arguments of an update taking arg (nil: none).
func updateArgs(arg any) []any {
	if arg == nil {
		return nil
	}
	return []any{arg}
}
