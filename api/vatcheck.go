package api

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/dispatch"
	"kudos/store"
	"kudos/vatcheck"
	"kudos/workflows"
)

// allowVIES takes a question to VIES from the account's limit and the
// client's (issue 35): a VAT id is checked with a call to the EU's
// service, which blocks callers that ask too much; alternating ids costs
// nothing once answered (vatcheck.Ask keeps the answers).
func (s *Server) allowVIES(c fiber.Ctx) error {
	if err := allow(c, s.limits.viesAccount, accountID(c).String()); err != nil {
		return err
	}
	return allow(c, s.limits.viesClient, s.clientKey(c))
}

// vatCheckTimeout bounds the check a save waits for: past it the id is
// saved pending and the workflow asks again.
const vatCheckTimeout = 8 * time.Second

// vatIDStatus decides the status a billing address is saved with (issue
// 30): none without a VAT id; verified when the id and country are the
// ones stored and verified already (no new check); otherwise VIES's answer
// now, or pending when it is unavailable. An invalid id is saved (an
// accountant wants the status shown, and the rest of the address is
// right): it is charged VAT, and saving it again asks VIES again (it may
// have been invalid only because VIES gave no answer for 24 h). A tax id
// of a country outside the EU is not asked of VIES, which knows only the
// member states' (it would call every one invalid): none, as without an
// id; that the address has one makes its buyer a business (issue 34). VIES's
// answer is kept for kudos.VATAnswerTTL and given again without asking;
// a question VIES must answer is limited per account and per client
// (allowVIES: 429 beyond, nothing saved).
func (s *Server) vatIDStatus(c fiber.Ctx, stored *kudos.BillingAddress, addr kudos.BillingAddress) (kudos.VATIDStatus, error) {
	if addr.VATID == "" || !kudos.IsEUMember(kudos.CountryCode(addr.Country)) {
		return kudos.VATIDNone, nil
	}
	if stored != nil && stored.VATID == addr.VATID && stored.Country == addr.Country && stored.VATIDStatus == kudos.VATIDVerified {
		return kudos.VATIDVerified, nil
	}
	if s.VATChecker == nil {
		return kudos.VATIDPending, nil
	}
	cctx, cancel := context.WithTimeout(ctx(c), vatCheckTimeout)
	defer cancel()
	valid, err := vatcheck.Ask(cctx, s.DB, s.VATChecker, addr.Country, addr.VATID, func() error { return s.allowVIES(c) })
	switch {
	case kudos.ErrorCode(err) == kudos.ERateLimited:
		return "", err
	case err != nil:
		if !errors.Is(err, kudos.ErrVATCheckUnavailable) {
			s.Log.Warn("VAT-id check failed; saved pending", "error", err)
		}
		return kudos.VATIDPending, nil
	case valid:
		return kudos.VATIDVerified, nil
	}
	return kudos.VATIDInvalid, nil
}

// vatCheckEffects is what saving the address calls for: the start of its
// check's workflow when pending; the timeline's vat_id_checked when the
// check was answered now (an id other than the stored one, or one not
// answered before); nothing else.
func vatCheckEffects(accountID uuid.UUID, stored *kudos.BillingAddress) func(kudos.BillingAddress) store.SaveEffects {
	return func(saved kudos.BillingAddress) store.SaveEffects {
		switch {
		case saved.VATIDStatus == kudos.VATIDPending:
			return store.SaveEffects{Outbox: []store.OutboxEntry{dispatch.VATCheckStart(workflows.VATCheckInput{AccountID: accountID,
				Country: saved.Country, VATID: saved.VATID, Version: saved.Version})}}
		case saved.VATIDStatus == kudos.VATIDNone,
			stored != nil && stored.VATID == saved.VATID && stored.VATIDStatus == saved.VATIDStatus:
			return store.SaveEffects{}
		}
		return store.SaveEffects{Events: []kudos.BillingEvent{{AccountID: accountID, Type: kudos.EventVATIDChecked,
			Key: dispatch.VATCheckedKey(accountID, saved.Version)}}}
	}
}

// quoteEffects is what saving the address calls for besides its check:
// the news to the subscription workflow that the buyer or the VAT basis
// changed (an open checkout whose quote no longer holds is closed, issue
// 34), unless the address names the same buyer with the same status.
func quoteEffects(accountID uuid.UUID, stored *kudos.BillingAddress) func(kudos.BillingAddress) store.SaveEffects {
	return func(saved kudos.BillingAddress) store.SaveEffects {
		if stored != nil && kudos.SameBuyer(stored, &saved) && stored.VATIDStatus == saved.VATIDStatus {
			return store.SaveEffects{}
		}
		return store.SaveEffects{Outbox: []store.OutboxEntry{dispatch.QuoteChanged(accountID, "address:"+strconv.Itoa(saved.Version))}}
	}
}
