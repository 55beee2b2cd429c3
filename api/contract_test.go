package api_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// spec is api/openapi.yaml, loosely typed.
type spec map[string]any

func loadSpec(t *testing.T) spec {
	raw, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any // not spec: yaml.v3 would give nested maps that type too
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return spec(m)
}

var pathParam = regexp.MustCompile(`\{(\w+)\}`)

// TestContractRoutes: every operation of the spec is a route of the app, and
// every /v1 and /dev route of the app is in the spec.
func TestContractRoutes(t *testing.T) {
	h := newHarness(t)
	h.srv.Webhooks = fakeWebhooks{} // the Stripe webhook route exists with the stripe provider
	h = newHarnessFrom(t, h)
	s := loadSpec(t)
	documented := map[string]bool{}
	for path, ops := range s["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			documented[strings.ToUpper(method)+" "+pathParam.ReplaceAllString(path, ":$1")] = true
		}
	}
	served := map[string]bool{}
	for _, r := range h.app.GetRoutes(true) {
		served[r.Method+" "+r.Path] = true
	}
	for op := range documented {
		if !served[op] {
			t.Errorf("documented but not served: %s", op)
		}
	}
	for op := range served {
		_, path, _ := strings.Cut(op, " ")
		if (strings.HasPrefix(path, "/v1/") || strings.HasPrefix(path, "/dev/")) && !documented[op] && !strings.HasPrefix(op, "HEAD ") {
			t.Errorf("served but not documented in api/openapi.yaml: %s", op)
		}
	}
}

// TestContractResponses drives each documented operation and checks the
// answers against their schemas.
func TestContractResponses(t *testing.T) {
	h := newHarness(t)
	s := loadSpec(t)
	check := func(method, path, specPath string, r response) {
		t.Helper()
		if err := s.validateResponse(method, specPath, r); err != nil {
			t.Errorf("%s %s → %d: %v\n%s", method, path, r.Status, err, r.Raw)
		}
	}
	email := "contract@example.com"
	r := h.do("POST", "/v1/auth/signup", signupBody(email), "")
	check("post", "/v1/auth/signup", "/v1/auth/signup", r)
	check("post", "/v1/auth/signup", "/v1/auth/signup", h.do("POST", "/v1/auth/signup", map[string]any{"email": "x"}, ""))
	tok := tokenFrom(h.lastMail(email).Link)
	r = h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": tok}, "")
	check("put", "/v1/auth/activate-user", "/v1/auth/activate-user", r)
	check("put", "/v1/auth/activate-user", "/v1/auth/activate-user", h.do("PUT", "/v1/auth/activate-user", map[string]any{"token": tok}, ""))
	r = h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Secret1!"}, "")
	check("post", "/v1/auth/signin", "/v1/auth/signin", r)
	token, account := r.str("token"), r.str("account_id")
	check("post", "/v1/auth/signin", "/v1/auth/signin", h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Wrong1!xx"}, ""))
	check("get", "/v1/accounts/{accountId}", "/v1/accounts/{accountId}", h.do("GET", "/v1/accounts/"+account, nil, token))
	check("get", "/v1/accounts/{accountId}", "/v1/accounts/{accountId}", h.do("GET", "/v1/accounts/"+strings.Repeat("0", 8)+"-0000-0000-0000-000000000000", nil, token))
	check("post", "/v1/auth/activation-token", "/v1/auth/activation-token", h.do("POST", "/v1/auth/activation-token", map[string]any{"email": email}, ""))
	check("post", "/v1/auth/password-reset-token", "/v1/auth/password-reset-token", h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": email}, ""))
	reset := tokenFrom(h.lastMail(email).Link)
	check("post", "/v1/auth/reset-password", "/v1/auth/reset-password", h.do("POST", "/v1/auth/reset-password", map[string]any{"token": reset, "password": "Newpass1!"}, ""))
	check("post", "/v1/auth/oidc-signup", "/v1/auth/oidc-signup", h.do("POST", "/v1/auth/oidc-signup", map[string]any{"opt_in_terms_of_use": true}, ""))
	h.oidc.QueueIdentity("contract-sub", email, true)
	r = h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, "")
	check("post", "/v1/auth/oidc-signin", "/v1/auth/oidc-signin", r)
	cb := h.do("PUT", callbackPath(authorize(t, r.str("auth_url"))), nil, "")
	check("put", "/v1/auth/callback", "/v1/auth/callback", cb)
	check("put", "/v1/auth/callback", "/v1/auth/callback", h.do("PUT", "/v1/auth/callback", nil, ""))
	check("post", "/v1/auth/signout", "/v1/auth/signout", h.do("POST", "/v1/auth/signout", nil, cb.str("token")))
	acc := "/v1/accounts/{accountId}"
	base := "/v1/accounts/" + account
	token = h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": email, "password": "Newpass1!"}, ""), 201).str("token")
	check("patch", base, acc, h.do("PATCH", base, map[string]any{"name": "Contract Co"}, token))
	check("patch", base, acc, h.do("PATCH", base, map[string]any{"name": "C"}, token))
	check("patch", base+"/billing-address", acc+"/billing-address", h.do("PATCH", base+"/billing-address", validAddress(), token))
	check("patch", base+"/billing-address", acc+"/billing-address", h.do("PATCH", base+"/billing-address", validAddress(), token, "If-Match", "1"))
	check("patch", base+"/user", acc+"/user", h.do("PATCH", base+"/user", map[string]any{"lastname": "Doe"}, token))
	check("post", base+"/feature-request", acc+"/feature-request", h.do("POST", base+"/feature-request",
		map[string]any{"feature_area": "OTHER", "feature_profile": "OTHER", "feature_description": "x"}, token))
	check("get", base+"/billing", acc+"/billing", h.do("GET", base+"/billing", nil, token))
	check("delete", base+"/billing/payment-methods", acc+"/billing/payment-methods", h.do("DELETE", base+"/billing/payment-methods", map[string]any{"mandate_id": "x"}, token))
	check("post", base+"/billing/payment-methods", acc+"/billing/payment-methods", h.do("POST", base+"/billing/payment-methods", nil, token))
	check("post", "/dev/oidc/identities", "/dev/oidc/identities", h.do("POST", "/dev/oidc/identities", map[string]any{"subject": "s", "email": "e@example.com"}, ""))
}

// validateResponse checks r against the documented response of the operation.
func (s spec) validateResponse(method, path string, r response) error {
	op, ok := s.at("paths", path, method).(map[string]any)
	if !ok {
		return fmt.Errorf("operation not documented")
	}
	res, ok := op["responses"].(map[string]any)[strconv.Itoa(r.Status)]
	if !ok {
		return fmt.Errorf("status %d not documented", r.Status)
	}
	res = s.resolve(res)
	schema := s.at2(res, "content", "application/json", "schema")
	if schema == nil {
		return nil
	}
	var body any = r.Body
	if r.Body == nil {
		body = nil
	}
	return s.validate(schema, body, "$")
}

func (s spec) at(keys ...string) any {
	var cur any = map[string]any(s)
	return s.at2(cur, keys...)
}

func (s spec) at2(cur any, keys ...string) any {
	for _, k := range keys {
		m, ok := s.resolve(cur).(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// resolve follows a local $ref.
func (s spec) resolve(node any) any {
	for {
		m, ok := node.(map[string]any)
		if !ok {
			return node
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return node
		}
		node = s.at(strings.Split(strings.TrimPrefix(ref, "#/"), "/")...)
	}
}

// validate checks v against the subset of JSON Schema the spec uses.
func (s spec) validate(schema, v any, at string) error {
	sch, _ := s.resolve(schema).(map[string]any)
	if sch == nil {
		return nil
	}
	if all, ok := sch["allOf"].([]any); ok {
		for _, sub := range all {
			if err := s.validate(sub, v, at); err != nil {
				return err
			}
		}
	}
	if one, ok := sch["oneOf"].([]any); ok {
		matched := 0
		for _, sub := range one {
			if s.validate(sub, v, at) == nil {
				matched++
			}
		}
		if matched != 1 {
			return fmt.Errorf("%s: matches %d of oneOf, want 1", at, matched)
		}
	}
	if typ := sch["type"]; typ != nil {
		types := []string{}
		switch tt := typ.(type) {
		case string:
			types = append(types, tt)
		case []any:
			for _, x := range tt {
				types = append(types, x.(string))
			}
		}
		if !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			return fmt.Errorf("%s: %s, want %v", at, jsonType(v), types)
		}
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.Contains(enum, v) {
		return fmt.Errorf("%s: %v not in %v", at, v, enum)
	}
	if obj, ok := v.(map[string]any); ok {
		if req, ok := sch["required"].([]any); ok {
			for _, k := range req {
				if _, ok := obj[k.(string)]; !ok {
					return fmt.Errorf("%s: required %s missing", at, k)
				}
			}
		}
		props, _ := sch["properties"].(map[string]any)
		for k, val := range obj {
			if p, ok := props[k]; ok {
				if err := s.validate(p, val, at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	if arr, ok := v.([]any); ok {
		for i, item := range arr {
			if err := s.validate(sch["items"], item, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}
