package api_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The harness checks every exchange of the api tests against
// api/openapi.yaml with kin-openapi (request and response validation, with a
// router built from the document): a test checks the contract without
// asking for it. See checkContract for the rules.

// openAPI is api/openapi.yaml, loaded and validated once.
type openAPI struct {
	doc    *openapi3.T
	router routers.Router
	// server is the document's first server URL: the router matches on
	// scheme and host, so checked requests are sent "there".
	server string
}

var loadOpenAPI = sync.OnceValues(func() (*openAPI, error) {
	// The sandbox's checkout page is the one HTML answer: read as text.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile("openapi.yaml")
	if err != nil {
		return nil, fmt.Errorf("api/openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("api/openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("api/openapi.yaml: router: %w", err)
	}
	return &openAPI{doc: doc, router: router, server: strings.TrimSuffix(doc.Servers[0].URL, "/")}, nil
})

// checkContract reports (as a test error) where an exchange of the api
// disagrees with api/openapi.yaml. method and target (path and query),
// header and body are the request as sent; r is the answer.
//
//   - An answer of the SPA (a path outside /v1, /dev, /sandbox and the
//     operations routes) is not the API's and is not checked, nor is a CORS
//     preflight (the CORS middleware answers it for every route; the
//     document's description says which origins and headers it allows).
//   - A request that no operation of the document matches must get a 404
//     or 405 in the error shape; anything else is an undocumented route.
//   - A request the document refuses (parameters, body, missing bearer
//     token) must be refused: a 2xx or 3xx answer to it is drift.
//   - Every answer's status must be documented for its operation and its
//     body must match the documented content (kin-openapi's ValidateResponse);
//     an answer documented without content must have an empty body.
//   - An error answer's error.status is its HTTP status (ARCHITECTURE §4).
func (h *harness) checkContract(method, target string, header http.Header, body []byte, r response) {
	h.t.Helper()
	if !isAPITarget(target) || isPreflight(method, header) {
		return
	}
	spec, err := loadOpenAPI()
	if err != nil {
		h.t.Fatal(err)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		h.t.Errorf("%s %s → %d: Cache-Control %q, want no-store on every api answer", method, target, r.Status, cc)
	}
	if err := spec.check(method, target, header, body, r); err != nil {
		h.t.Errorf("api/openapi.yaml: %s %s → %d: %v\n%.500s", method, target, r.Status, err, r.Raw)
	}
}

func (s *openAPI) check(method, target string, header http.Header, body []byte, r response) error {
	if r.Status >= 400 {
		if err := checkErrorStatus(r); err != nil {
			return err
		}
	}
	req, err := http.NewRequest(method, s.server+target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = header.Clone()
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
			if r.Status == http.StatusNotFound || r.Status == http.StatusMethodNotAllowed {
				return checkErrorShape(r)
			}
			return fmt.Errorf("no operation of the document matches this request (%v), yet the api answered it", err)
		}
		return err
	}
	ctx := context.Background()
	opts := &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: credentialPresent}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	// Only a request the api accepted must be one the document allows. A
	// refused one is not validated at all: the validator's error for the
	// abuse tests' deeply nested bodies (5 000 levels) is formatted as
	// indented JSON of every level, quadratic, which took 115 s of CPU
	// under -race for one request.
	if r.Status < 400 {
		if reqErr := openapi3filter.ValidateRequest(ctx, in); reqErr != nil {
			return fmt.Errorf("the document refuses this request, yet the api accepted it: %v", reqErr)
		}
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: r.Status, Header: r.Header, Options: opts}
	out.SetBodyBytes([]byte(r.Raw))
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return err
	}
	if doc := route.Operation.Responses.Status(r.Status); doc != nil && len(doc.Value.Content) == 0 && r.Raw != "" {
		return errors.New("the document gives this answer no content, yet it has a body")
	}
	return nil
}

// credentialPresent is the document's security schemes as a request
// validator sees them: the credential is sent. Whether it is a good one is
// the api's business (401 for a bad session, 400 for a bad signature).
func credentialPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	req := in.RequestValidationInput.Request
	switch in.SecuritySchemeName {
	case "bearer":
		token, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
		if !ok || strings.TrimSpace(token) == "" {
			return errors.New("no bearer token")
		}
	case "stripeSignature":
		if req.Header.Get("Stripe-Signature") == "" {
			return errors.New("no Stripe-Signature header")
		}
	default:
		return fmt.Errorf("unknown security scheme %q", in.SecuritySchemeName)
	}
	return nil
}

// checkErrorStatus: the status inside an error answer is the HTTP one.
func checkErrorStatus(r response) error {
	e, ok := r.Body["error"].(map[string]any)
	if !ok {
		return nil // the schema check names the missing shape
	}
	if e["status"] != float64(r.Status) {
		return fmt.Errorf("error.status %v is not the HTTP status", e["status"])
	}
	return nil
}

// isAPITarget reports whether target is served by the API rather than the
// SPA's history fallback and files.
func isAPITarget(target string) bool {
	path, _, _ := strings.Cut(target, "?")
	switch path {
	case "/v1", "/healthz", "/readyz", "/metrics":
		return true
	}
	for _, prefix := range []string{"/v1/", "/dev/", "/sandbox/"} {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// isPreflight reports whether a request is a CORS preflight.
func isPreflight(method string, header http.Header) bool {
	return method == http.MethodOptions && header.Get("Origin") != "" && header.Get("Access-Control-Request-Method") != ""
}
