package vatcheck

import (
	"context"

	"kudos"
)

// Answers keeps VIES's answers per (ISO 3166 country, VAT id) for
// kudos.VATAnswerTTL (store.DB).
type Answers interface {
	VATAnswer(ctx context.Context, country, vatID string) (valid, found bool, err error)
	SaveVATAnswer(ctx context.Context, country, vatID string, valid bool) error
}

// Ask is how Kudos asks about a VAT id (issue 35): the answer VIES gave
// within kudos.VATAnswerTTL when there is one, without asking again;
// otherwise limit (nil: none) is called first, the caller's limit on
// questions to VIES whose error is returned as it is, then checker is
// asked and its answer kept. An outage (kudos.ErrVATCheckUnavailable) or
// any other error is never kept: the next question asks again.
func Ask(ctx context.Context, answers Answers, checker kudos.VATChecker, country, vatID string, limit func() error) (bool, error) {
	iso := kudos.CountryCode(country)
	if valid, found, err := answers.VATAnswer(ctx, iso, vatID); err != nil {
		return false, err
	} else if found {
		return valid, nil
	}
	if limit != nil {
		if err := limit(); err != nil {
			return false, err
		}
	}
	valid, err := checker.Check(ctx, country, vatID)
	if err != nil {
		return false, err
	}
	// The answer stands even if it cannot be kept: keeping it only spares
	// a later question.
	_ = answers.SaveVATAnswer(ctx, iso, vatID, valid)
	return valid, nil
}
