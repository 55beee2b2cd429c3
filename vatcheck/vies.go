// Package vatcheck holds the kudos.VATChecker adapters: VIES, the EU's
// VAT Information Exchange System (its REST API), and the local stand-in
// that development and tests use instead (ARCHITECTURE §3).
package vatcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"kudos"
)

// VIES checks VAT ids with VIES's REST API (POST <BaseURL>/check-vat-number).
type VIES struct {
	// BaseURL is e.g. https://ec.europa.eu/taxation_customs/vies/rest-api.
	BaseURL string
	// HTTP is the client (nil: one with a 20 s timeout).
	HTTP *http.Client
}

// viesRequest is the body of check-vat-number.
type viesRequest struct {
	CountryCode string `json:"countryCode"`
	VATNumber   string `json:"vatNumber"`
}

// viesAnswer is what check-vat-number answers: valid, or why it could not
// tell (userError on an answer, errorWrappers on a refusal).
type viesAnswer struct {
	Valid         *bool  `json:"valid"`
	UserError     string `json:"userError"`
	ErrorWrappers []struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	} `json:"errorWrappers"`
}

// Check implements kudos.VATChecker. vatID carries its country prefix
// (SPEC §5); VIES is asked about the prefix's member state. An id VIES
// calls malformed (INVALID_INPUT) is invalid; any other error, a 5xx or no
// answer is kudos.ErrVATCheckUnavailable.
func (v *VIES) Check(ctx context.Context, _ string, vatID string) (bool, error) {
	if len(vatID) < 3 {
		return false, nil
	}
	body, err := json.Marshal(viesRequest{CountryCode: vatID[:2], VATNumber: vatID[2:]})
	if err != nil {
		return false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.BaseURL+"/check-vat-number", bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	client := v.HTTP
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	res, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("%w: %v", kudos.ErrVATCheckUnavailable, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return false, fmt.Errorf("%w: %v", kudos.ErrVATCheckUnavailable, err)
	}
	var a viesAnswer
	if jerr := json.Unmarshal(raw, &a); jerr != nil {
		return false, fmt.Errorf("%w: HTTP %d, unreadable answer", kudos.ErrVATCheckUnavailable, res.StatusCode)
	}
	return a.result(res.StatusCode)
}

// result reads an answer of HTTP status status.
func (a viesAnswer) result(status int) (bool, error) {
	for _, w := range a.ErrorWrappers {
		if w.Error == "INVALID_INPUT" {
			return false, nil
		}
		return false, fmt.Errorf("%w: %s", kudos.ErrVATCheckUnavailable, w.Error)
	}
	switch a.UserError {
	case "", "VALID", "INVALID":
	case "INVALID_INPUT":
		return false, nil
	default:
		return false, fmt.Errorf("%w: %s", kudos.ErrVATCheckUnavailable, a.UserError)
	}
	if status != http.StatusOK || a.Valid == nil {
		return false, fmt.Errorf("%w: HTTP %d without an answer", kudos.ErrVATCheckUnavailable, status)
	}
	return *a.Valid, nil
}
