package kudos

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// AccountNameMinLength is the shortest account or organization name (SPEC §5).
const AccountNameMinLength = 3

// Plan is a subscription plan. The order of Plans is the upgrade order.
type Plan string

// The plans of SPEC §3.
const (
	PlanTrial   Plan = "TRIAL"
	PlanStarter Plan = "STARTER"
	PlanPro     Plan = "PRO"
	PlanTeam    Plan = "TEAM"
)

// ShowStatus is what the dashboard shows of a subscription (SPEC §3).
type ShowStatus string

// The show statuses of SPEC §3.
const (
	StatusActive       ShowStatus = "active"
	StatusTrialExpired ShowStatus = "trial_expired"
	StatusPlanExpired  ShowStatus = "plan_expired"
	StatusProcessing   ShowStatus = "processing"
)

// Subscription is the read model of an account's subscription, written by the
// subscription workflow's activities.
type Subscription struct {
	Plan            Plan       `json:"plan"`
	ShowStatus      ShowStatus `json:"show_status"`
	ShowOnboarding  bool       `json:"show_onboarding"`
	TrialsLeft      int        `json:"trials_left"`
	PlanRenewalAt   *time.Time `json:"plan_renewal_at"`
	TrialExpiresAt  *time.Time `json:"trial_expires_at"`
	StartNextPeriod bool       `json:"start_next_period"`
}

// Account is the business that owns testimonials and pays for a plan.
type Account struct {
	ID     uuid.UUID `json:"id"`
	Name   string    `json:"name"`
	ImgURL string    `json:"img_url"`
	// LogoURL is where a public logo is served from (ImgURL is a reference);
	// "" unless the logo is public. Filled in by the api.
	LogoURL string `json:"logo_url"`
	// LogoError is why the last upload was refused (a kudos.Logo* reason).
	LogoError            string       `json:"logo_error"`
	TestimonialCount     int          `json:"testimonial_count"`
	RecordingSpacesCount int          `json:"recording_spaces_count"`
	Subscription         Subscription `json:"subscription"`
}

// ValidateAccountName reports the field code for an account or organization
// name, or "".
func ValidateAccountName(name string) string {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return FRequired
	case !validText(name):
		return FInvalidValue
	case n < AccountNameMinLength:
		return FTooShort
	case n > NameMaxLength:
		return FTooLong
	}
	return ""
}
