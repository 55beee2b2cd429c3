package vatcheck

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"kudos"
)

// TestVIESRequestAndAnswers: the adapter posts the id's country prefix and
// number to check-vat-number, and reads VIES's answers: valid, invalid,
// malformed input (invalid), member state or service down, a 5xx and
// garbage (unavailable).
func TestVIESRequestAndAnswers(t *testing.T) {
	var got viesRequest
	answer, status := "", http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/check-vat-number" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s %s %q", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Error(err)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(answer))
	}))
	defer srv.Close()
	v := &VIES{BaseURL: srv.URL}
	for _, tc := range []struct {
		name, answer string
		status       int
		valid        bool
		unavailable  bool
	}{
		{"valid", `{"countryCode":"BE","vatNumber":"0123456789","valid":true,"name":"ACME"}`, 200, true, false},
		{"invalid", `{"countryCode":"BE","vatNumber":"0123456789","valid":false,"userError":"INVALID"}`, 200, false, false},
		{"malformed", `{"actionSucceed":false,"errorWrappers":[{"error":"INVALID_INPUT"}]}`, 400, false, false},
		{"member state down", `{"actionSucceed":false,"errorWrappers":[{"error":"MS_UNAVAILABLE"}]}`, 500, false, true},
		{"busy", `{"valid":false,"userError":"MS_MAX_CONCURRENT_REQ"}`, 200, false, true},
		{"5xx", `<html>bad gateway</html>`, 502, false, true},
		{"no verdict", `{}`, 200, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer, status = tc.answer, tc.status
			valid, err := v.Check(context.Background(), "nl_BE", "BE0123456789")
			if got.CountryCode != "BE" || got.VATNumber != "0123456789" {
				t.Errorf("asked %+v", got)
			}
			if valid != tc.valid || errors.Is(err, kudos.ErrVATCheckUnavailable) != tc.unavailable ||
				(err != nil && !tc.unavailable) {
				t.Errorf("valid %v, err %v", valid, err)
			}
		})
	}
	srv.Close()
	if _, err := v.Check(context.Background(), "nl_BE", "BE0123456789"); !errors.Is(err, kudos.ErrVATCheckUnavailable) {
		t.Errorf("VIES unreachable: %v", err)
	}
}

// TestStandIn: 000 is invalid, 999 unavailable for the outage from the
// first question and valid after, anything else valid.
func TestStandIn(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	s := &StandIn{Now: func() time.Time { return now }}
	ctx := context.Background()
	if ok, err := s.Check(ctx, "nl_BE", "BE0123456000"); ok || err != nil {
		t.Errorf("000: %v %v", ok, err)
	}
	if ok, err := s.Check(ctx, "nl_BE", "BE0123456789"); !ok || err != nil {
		t.Errorf("other: %v %v", ok, err)
	}
	if _, err := s.Check(ctx, "nl_BE", "BE0123456999"); !errors.Is(err, kudos.ErrVATCheckUnavailable) {
		t.Errorf("999 first: %v", err)
	}
	now = now.Add(59 * time.Second)
	if _, err := s.Check(ctx, "nl_BE", "BE0123456999"); !errors.Is(err, kudos.ErrVATCheckUnavailable) {
		t.Errorf("999 at 59 s: %v", err)
	}
	now = now.Add(time.Second)
	if ok, err := s.Check(ctx, "nl_BE", "BE0123456999"); !ok || err != nil {
		t.Errorf("999 after 60 s: %v %v", ok, err)
	}
}
