package api_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"kudos/api"
)

// catalogueFile is the UI's copy of the error catalogue, which
// ui/src/lib/api-client.ts imports.
const catalogueFile = "../ui/src/lib/error-catalogue.json"

var updateCatalogue = flag.Bool("update-catalogue", false, "write "+catalogueFile+" from api.ErrorCatalogue")

// TestErrorCatalogueFile: the UI's error catalogue is the Go one, byte for
// byte. `go generate ./api` (or this test with -update-catalogue) writes it.
func TestErrorCatalogueFile(t *testing.T) {
	t.Parallel()
	want, err := json.MarshalIndent(api.ErrorCatalogue(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *updateCatalogue {
		if err := os.WriteFile(catalogueFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(catalogueFile)
	if err != nil {
		t.Fatalf("%v: run go generate ./api", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from api.ErrorCatalogue (api/errors.go): run go generate ./api\nwant:\n%s", catalogueFile, want)
	}
}
