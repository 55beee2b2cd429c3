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
	"kudos/workflows"
)

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
// id; that the address has one makes its buyer a business (issue 34).
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
	valid, err := s.VATChecker.Check(cctx, addr.Country, addr.VATID)
	switch {
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
