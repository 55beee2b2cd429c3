package worker_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	"kudos/internal/testenv"
	"kudos/worker"
	"kudos/workflows"
)

// TestSetupRegistersNamespaceAndSearchAttributes: `kudos temporal setup` on
// a cluster without the namespace registers it and every search attribute
// with its type, and a second run changes nothing.
func TestSetupRegistersNamespaceAndSearchAttributes(t *testing.T) {
	tc := testenv.Temporal(t)
	ctx := context.Background()
	ns := "kudos-setup-" + uuid.NewString()[:8]
	logf := func(msg string, args ...any) { t.Log(append([]any{msg}, args...)...) }
	if err := worker.Setup(ctx, tc, ns, logf); err != nil {
		t.Fatal(err)
	}
	if err := worker.Setup(ctx, tc, ns, logf); err != nil {
		t.Fatalf("second run: %v", err)
	}
	d, err := tc.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Config.WorkflowExecutionRetentionTtl.AsDuration(); got != worker.SetupRetention {
		t.Errorf("retention %v, want %v", got, worker.SetupRetention)
	}
	have, err := tc.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	for _, sa := range workflows.SearchAttributes {
		if typ := have.CustomAttributes[sa.Name]; typ != sa.Type {
			t.Errorf("%s registered as %v, want %v", sa.Name, typ, sa.Type)
		}
	}
}

// TestSetupRefusesAWrongType: an attribute registered with another type is
// named, with what to do, instead of being silently left wrong.
func TestSetupRefusesAWrongType(t *testing.T) {
	tc := testenv.Temporal(t)
	ctx := context.Background()
	ns := "kudos-setup-" + uuid.NewString()[:8]
	if err := worker.Setup(ctx, tc, ns, func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.OperatorService().RemoveSearchAttributes(ctx, &operatorservice.RemoveSearchAttributesRequest{
		Namespace: ns, SearchAttributes: []string{workflows.SearchPaymentStateSince}}); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: ns,
		SearchAttributes: map[string]enumspb.IndexedValueType{workflows.SearchPaymentStateSince: enumspb.INDEXED_VALUE_TYPE_KEYWORD}}); err != nil {
		t.Fatal(err)
	}
	err := worker.Setup(ctx, tc, ns, func(string, ...any) {})
	if err == nil || !strings.Contains(err.Error(), "PaymentStateSince") || !strings.Contains(err.Error(), "Datetime") {
		t.Fatalf("setup over a Keyword PaymentStateSince: %v", err)
	}
}

// TestDevServersRegisterEverySearchAttribute: every place that starts a
// development Temporal server or a compose cluster names every search
// attribute with its type, so none of them drifts from the workflows.
func TestDevServersRegisterEverySearchAttribute(t *testing.T) {
	for file, format := range map[string]string{
		"../scripts/lib.sh":              "--search-attribute %s=%s",
		"../faults/stack_test.go":        `"--search-attribute", "%s=%s"`,
		"../docker-compose.temporal.yml": "--name %s",
	} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, sa := range workflows.SearchAttributes {
			typ := map[enumspb.IndexedValueType]string{enumspb.INDEXED_VALUE_TYPE_KEYWORD: "Keyword",
				enumspb.INDEXED_VALUE_TYPE_DATETIME: "Datetime", enumspb.INDEXED_VALUE_TYPE_BOOL: "Bool"}[sa.Type]
			want := strings.ReplaceAll(format, "%s=%s", sa.Name+"="+typ)
			want = strings.ReplaceAll(want, "%s", sa.Name)
			if !strings.Contains(string(raw), want) {
				t.Errorf("%s does not register %s (%s): want %q", file, sa.Name, typ, want)
			}
		}
	}
}
