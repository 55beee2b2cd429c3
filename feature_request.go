package kudos

import (
	"strings"
	"unicode/utf8"
)

// FeatureAreas and FeatureProfiles are the choices of a feature request
// (SPEC §3); the first of each is the form's default.
var (
	FeatureAreas = []string{"PRODUCT_TESTIMONIALS", "PRODUCT_SPACES", "PRODUCT_SHOWCASES", "PRODUCT_REELS",
		"PRODUCT_TEAM", "PRODUCT_INTEGRATIONS", "SUPPORT", "OTHER"}
	FeatureProfiles = []string{"BUSINESS_OWNER", "MARKETING_SPECIALIST", "DESIGNER", "DEVELOPER", "OTHER"}
)

// FeatureDescriptionMaxLength bounds a feature request's text.
const FeatureDescriptionMaxLength = 5000

// FeatureRequest is a wish sent from the dashboard.
type FeatureRequest struct {
	Area        string `json:"feature_area"`
	Profile     string `json:"feature_profile"`
	Description string `json:"feature_description"`
}

// Validate checks the enums and the description.
func (r *FeatureRequest) Validate() error {
	fe := FieldErrors{}
	if !contains(FeatureAreas, r.Area) {
		fe.Add("feature_area", FInvalidValue)
	}
	if !contains(FeatureProfiles, r.Profile) {
		fe.Add("feature_profile", FInvalidValue)
	}
	switch d := strings.TrimSpace(r.Description); {
	case d == "":
		fe.Add("feature_description", FRequired)
	case !validText(d):
		fe.Add("feature_description", FInvalidValue)
	case utf8.RuneCountInString(d) > FeatureDescriptionMaxLength:
		fe.Add("feature_description", FTooLong)
	}
	return fe.Err()
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
