package dispatch

import (
	"fmt"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"kudos"
	"kudos/workflows"
)

// A refusal of the payment provider reaches the client as 422 with a text
// of its own: the activity's message (the adapter's error string, with the
// provider's words, our checkout and session ids) stays in the workflow's
// history for operators, never in an api answer.
func TestAProviderRefusalTellsTheClientNothingInternal(t *testing.T) {
	cause := kudos.Errorf(kudos.EInvalid, "the payment provider refused the request: No such customer: 'cus_Q1w2e3' (resource_missing)")
	err := updateError(fmt.Errorf("update: %w", temporal.NewNonRetryableApplicationError(cause.Error(), workflows.ErrTypeProviderRefused, cause)))
	if kudos.ErrorCode(err) != kudos.EInvalid {
		t.Fatalf("code %q, want %q", kudos.ErrorCode(err), kudos.EInvalid)
	}
	msg := kudos.ErrorMessage(err)
	for _, internal := range []string{"kudos error", "cus_Q1w2e3", "resource_missing", "code="} {
		if strings.Contains(msg, internal) {
			t.Errorf("the client is told %q, which holds %q", msg, internal)
		}
	}
	if msg != providerRefusedMessage {
		t.Errorf("the client is told %q, want %q", msg, providerRefusedMessage)
	}
}
