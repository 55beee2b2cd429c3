package api_test

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"kudos/api"
)

const errorSchemaRef = "#/components/schemas/Error"

// TestOpenAPIDocument lints api/openapi.yaml, offline: the rules an outside
// linter (redocly's recommended set) would apply that matter here, and the
// ties between the document and the code's error catalogue.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// Validate also refuses unknown keys (a flow-style description with a
	// comma in it is an unknown key) and undefined security schemes.
	if err := doc.Validate(context.Background(), openapi3.EnableMultiError()); err != nil {
		t.Errorf("api/openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	catalogue := api.ErrorCatalogue()
	ids := map[string]string{}
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			name := method + " " + path
			if op.OperationID == "" {
				t.Errorf("%s: no operationId", name)
			} else if other, dup := ids[op.OperationID]; dup {
				t.Errorf("%s: operationId %q is also %s's", name, op.OperationID, other)
			}
			ids[op.OperationID] = name
			if op.Summary == "" || len(op.Tags) == 0 {
				t.Errorf("%s: a summary and a tag are required", name)
			}
			if op.Security == nil {
				t.Errorf("%s: no security declared (a public operation says security: [])", name)
			}
			clientErrors := 0
			for code, res := range op.Responses.Map() {
				status, err := strconv.Atoi(code)
				if err != nil {
					t.Errorf("%s: response %q: give each status on its own", name, code)
					continue
				}
				if !usesErrorSchema(res) {
					if status >= 400 && status < 500 {
						t.Errorf("%s: %d does not use the Error schema", name, status)
					}
					continue
				}
				if status < 400 {
					t.Errorf("%s: %d uses the Error schema", name, status)
				}
				if status < 500 {
					clientErrors++
				}
				if _, ok := catalogue[status]; !ok {
					t.Errorf("%s: %d has no message in the error catalogue (api/errors.go)", name, status)
				}
			}
			if clientErrors == 0 {
				t.Errorf("%s: documents no 4xx answer in the Error schema", name)
			}
		}
	}
	codes := doc.Components.Schemas["Error"].Value.Properties["error"].Value.Properties["code"].Value.Enum
	documented := make([]string, 0, len(codes))
	for _, c := range codes {
		documented = append(documented, c.(string))
	}
	if !slices.Equal(slices.Sorted(slices.Values(documented)), slices.Sorted(slices.Values(knownErrorCodes))) {
		t.Errorf("Error.code lists %v; the api's codes are %v", documented, knownErrorCodes)
	}
	for status, entry := range catalogue {
		if !slices.Contains(knownErrorCodes, entry.Code) {
			t.Errorf("catalogue %d: code %q is not a known error code", status, entry.Code)
		}
	}
	t.Logf("%d operations; catalogue statuses %v", len(ids), slices.Sorted(maps.Keys(catalogue)))
}

// usesErrorSchema reports whether a response's JSON body is the Error schema.
func usesErrorSchema(res *openapi3.ResponseRef) bool {
	if res == nil || res.Value == nil {
		return false
	}
	mt := res.Value.Content.Get("application/json")
	return mt != nil && mt.Schema != nil && mt.Schema.Ref == errorSchemaRef
}
