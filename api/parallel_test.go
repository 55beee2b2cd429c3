package api_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// serialTests are the tests of this package that do not run in parallel,
// each with why: they change what is shared by the whole test binary.
// Every other test's first statement is t.Parallel(): each test has its own
// database (with its own clock, store.DB SetClock), Temporal task queue,
// worker, object storage and OIDC provider, and waits mostly on Temporal's
// timers and round trips, so that `go test -parallel N` (scripts/test.sh)
// overlaps those waits. A test that sets an environment variable
// (t.Setenv panics in a parallel test) or a package variable belongs here.
var serialTests = map[string]string{
	"TestAPaymentIsOneTrace":       "installs the process-wide tracer provider (tracingtest.Install)",
	"TestTracesHoldNoPersonalData": "installs the process-wide tracer provider (tracingtest.Install)",
}

// TestEveryTestIsParallelOrSaysWhyNot: a new test in this package either
// starts with t.Parallel() or is listed in serialTests with its reason, so
// that the package's wall time stays the longest test's rather than the
// sum of them all (make test: "keep make test well under 20 minutes").
func TestEveryTestIsParallelOrSaysWhyNot(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			seen[fn.Name.Name] = true
			_, serial := serialTests[fn.Name.Name]
			switch parallel := startsParallel(fn); {
			case parallel && serial:
				t.Errorf("%s (%s) calls t.Parallel() but is listed in serialTests", fn.Name.Name, name)
			case !parallel && !serial:
				t.Errorf("%s (%s): make t.Parallel() its first statement, or list it in serialTests with why it shares state", fn.Name.Name, name)
			}
		}
	}
	for name := range serialTests {
		if !seen[name] {
			t.Errorf("serialTests lists %s, which is no test of this package", name)
		}
	}
}

// startsParallel: fn's first statement is t.Parallel().
func startsParallel(fn *ast.FuncDecl) bool {
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Parallel" && len(call.Args) == 0
}
