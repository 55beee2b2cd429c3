package api_test

import (
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// The abuse cases of TestAbuse, by group. Each states the exact status and,
// for validation failures, the field the answer must name.

// with returns a copy of body with the given keys set (a nil value deletes).
func with(body map[string]any, kv ...any) map[string]any {
	out := maps.Clone(body)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

func featureRequest(kv ...any) map[string]any {
	return with(map[string]any{"feature_area": "OTHER", "feature_profile": "OTHER", "feature_description": "dark mode"}, kv...)
}

const (
	signup   = "/v1/auth/signup"
	signin   = "/v1/auth/signin"
	activate = "/v1/auth/activate-user"
	reset    = "/v1/auth/reset-password"
	resetReq = "/v1/auth/password-reset-token"
	resend   = "/v1/auth/activation-token"
)

// bodyCases are payloads that are not the one JSON object of the right
// shape: wrong types, missing and unknown fields, sizes, encodings.
func bodyCases(f *abuseFixture) []abuseCase {
	acc := "/v1/accounts/" + f.accountA
	rename := func(kind, name string, body any, status int, field string, headers ...string) abuseCase {
		return abuseCase{kind: kind, name: name, method: "PATCH", path: acc, body: body, token: f.tokenA, status: status, field: field, headers: headers}
	}
	deepList := `{"name":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	deepObject := `{"x":` + strings.Repeat(`{"a":`, 3000) + "1" + strings.Repeat("}", 3000) + `}`
	good := `{"name":"Acme Corp"}`
	return []abuseCase{
		rename("wrong JSON type", "number for a name", `{"name":42}`, 400, "name"),
		rename("wrong JSON type", "list for a name", `{"name":["Acme","Corp"]}`, 400, "name"),
		{kind: "wrong JSON type", name: "text for a boolean", method: "PATCH", path: acc + "/user", body: `{"opt_in_marketing":"yes"}`, token: f.tokenA, status: 400, field: "opt_in_marketing"},
		{kind: "wrong JSON type", name: "operator object for an e-mail", method: "POST", path: signin, body: `{"email":{"$ne":null},"password":"x"}`, status: 400, field: "email"},
		{kind: "numbers as strings", name: "version", method: "PATCH", path: acc + "/billing-address", body: with(validAddress(), "version", "1"), token: f.tokenA, status: 400, field: "version"},
		{kind: "numbers as strings", name: "boolean as text", method: "POST", path: signup, body: with(signupBody("n@example.com"), "opt_in_terms_of_use", "true"), status: 400, field: "opt_in_terms_of_use"},
		{kind: "numbers as strings", name: "number out of range", method: "PATCH", path: acc + "/billing-address", body: `{"version":1e30}`, token: f.tokenA, status: 400, field: "version"},
		{kind: "missing fields", name: "sign-up {}", method: "POST", path: signup, body: `{}`, status: 422, field: "email"},
		{kind: "missing fields", name: "address without city", method: "PATCH", path: acc + "/billing-address", body: with(validAddress(), "city", nil), token: f.tokenA, status: 422, field: "city"},
		{kind: "missing fields", name: "feature request {}", method: "POST", path: acc + "/feature-request", body: `{}`, token: f.tokenA, status: 422, field: "feature_description"},
		{kind: "missing fields", name: "subscription without plan", method: "POST", path: acc + "/subscription", body: `{}`, token: f.tokenA, status: 422, field: "plan"},
		{kind: "missing fields", name: "activation without token", method: "PUT", path: activate, body: `{}`, status: 422, field: "token"},
		{kind: "missing fields", name: "reset without password", method: "POST", path: reset, body: `{"token":"x"}`, status: 422, field: "password"},
		{kind: "missing fields", name: "payment method without id", method: "DELETE", path: acc + "/billing/payment-methods", body: `{}`, token: f.tokenA, status: 422, field: "mandate_id"},
		rename("unknown field", "account id in a rename", `{"name":"Acme Corp","id":"`+f.accountB+`"}`, 400, ""),
		{kind: "unknown field", name: "activated on the user", method: "PATCH", path: acc + "/user", body: `{"activated":true}`, token: f.tokenA, status: 400},
		{kind: "unknown field", name: "role on sign-up", method: "POST", path: signup, body: with(signupBody("role@example.com"), "role", "admin"), status: 400},
		{kind: "unknown field", name: "account_id in an address", method: "PATCH", path: acc + "/billing-address", body: with(validAddress(), "account_id", f.accountB), token: f.tokenA, status: 400},
		{kind: "huge body", name: "sign-in", method: "POST", path: signin, body: `{"email":"` + strings.Repeat("a", 70*1024) + `"}`, status: 413, socket: true},
		{kind: "huge body", name: "rename", method: "PATCH", path: acc, body: `{"name":"` + strings.Repeat("A", 100*1024) + `"}`, token: f.tokenA, status: 413, socket: true},
		rename("deep nesting", "beyond the decoder's depth", deepList, 400, ""),
		{kind: "deep nesting", name: "objects in an unknown field", method: "POST", path: signin, body: deepObject, status: 400},
		rename("empty body", "no body", nil, 400, ""),
		{kind: "empty body", name: "spaces", method: "POST", path: signup, body: " \n\t ", status: 400},
		{kind: "empty body", name: "zero length", method: "PATCH", path: acc + "/user", body: "", token: f.tokenA, status: 400},
		rename("JSON array", "list of objects", `[`+good+`]`, 400, ""),
		{kind: "JSON array", name: "empty list", method: "POST", path: signup, body: `[]`, status: 400},
		rename("JSON scalar", "string", `"Acme Corp"`, 400, ""),
		rename("JSON scalar", "null", `null`, 400, ""),
		rename("JSON scalar", "number", `42`, 400, ""),
		rename("trailing garbage", "text", good+` x`, 400, ""),
		rename("trailing garbage", "closing brace", good+`}`, 400, ""),
		rename("trailing garbage", "closing bracket", good+`]`, 400, ""),
		rename("trailing garbage", "second object", good+`{"name":"Evil Corp"}`, 400, ""),
		rename("malformed JSON", "unterminated", `{"name":"Acme Corp"`, 400, ""),
		rename("malformed JSON", "single quotes", `{'name':'Acme Corp'}`, 400, ""),
		rename("malformed JSON", "trailing comma", `{"name":"Acme Corp",}`, 400, ""),
		{kind: "malformed JSON", name: "NaN", method: "PATCH", path: acc + "/billing-address", body: `{"version":NaN}`, token: f.tokenA, status: 400},
		rename("wrong Content-Type", "text/plain", good, 400, "", "Content-Type", "text/plain"),
		rename("wrong Content-Type", "none", good, 400, "", "Content-Type", ""),
		{kind: "wrong Content-Type", name: "multipart", method: "PATCH", path: acc, body: good, token: f.tokenA, status: 400,
			headers: []string{"Content-Type", "multipart/form-data; boundary=x"}, socket: true},
		rename("wrong Content-Type", "look-alike", good, 400, "", "Content-Type", "application/jsonp"),
		{kind: "wrong Content-Type", name: "form sign-up", method: "POST", path: signup, body: signupBody("form@example.com"), status: 400,
			headers: []string{"Content-Type", "application/x-www-form-urlencoded"}},
		rename("non-UTF-8 bytes", "invalid bytes in a name", "{\"name\":\"\xff\xfe\xfd Corp\"}", 400, ""),
		rename("non-UTF-8 bytes", "overlong encoding", "{\"name\":\"\xc0\xafAcme Corp\"}", 400, ""),
		{kind: "non-UTF-8 bytes", name: "in a sign-up", method: "POST", path: signup, body: "{\"firstname\":\"\xc3\x28\"}", status: 400},
		rename("NUL bytes", "in an account name", `{"name":"Acme\u0000Corp"}`, 422, "name"),
		{kind: "NUL bytes", name: "in a sign-in e-mail", method: "POST", path: signin, body: `{"email":"a\u0000@b.co","password":"Secret1!"}`, status: 422, field: "email"},
		{kind: "NUL bytes", name: "in a reset e-mail", method: "POST", path: resetReq, body: `{"email":"a\u0000@b.co"}`, status: 422, field: "email"},
		{kind: "NUL bytes", name: "in a feature request", method: "POST", path: acc + "/feature-request", body: featureRequest("feature_description", "x\u0000y"), token: f.tokenA, status: 422, field: "feature_description"},
		{kind: "NUL bytes", name: "in an organization", method: "PATCH", path: acc + "/billing-address", body: with(validAddress(), "organization_name", "Acme\u0000 NV"), token: f.tokenA, status: 422, field: "organization_name"},
		{kind: "NUL bytes", name: "in a last name", method: "PATCH", path: acc + "/user", body: `{"lastname":"Love\u0000lace"}`, token: f.tokenA, status: 422, field: "lastname"},
	}
}

// sessionCases try to rename A's account without a valid session of A's:
// no token, malformed headers, forged, expired and ended tokens.
func sessionCases(t *testing.T, f *abuseFixture) []abuseCase {
	acc := "/v1/accounts/" + f.accountA
	body := map[string]any{"name": "Forged Name"}
	secret := []byte(f.secret)
	now := time.Now()
	hs256 := func(edit func(jwt.MapClaims)) string { return forge(t, f.tokenA, jwt.SigningMethodHS256, secret, edit) }
	keep := func(jwt.MapClaims) {}
	parts := strings.Split(f.tokenA, ".")
	sig := []byte(parts[2])
	// The 11th character is inside the signature, away from the last
	// character's padding bits, which would decode the same.
	if sig[10] == 'A' {
		sig[10] = 'B'
	} else {
		sig[10] = 'A'
	}
	tamperedPayload := strings.Split(forge(t, f.tokenA, jwt.SigningMethodHS256, []byte("x"), func(c jwt.MapClaims) { c["sub"] = f.userB.String() }), ".")[1]
	refused := func(kind, name, token string, headers ...string) abuseCase {
		return abuseCase{kind: kind, name: name, method: "PATCH", path: acc, body: body, token: token, headers: headers, status: 401}
	}
	return []abuseCase{
		refused("no session", "no Authorization header", ""),
		refused("malformed Authorization", "Basic credentials", "", "Authorization", "Basic YWRhOlNlY3JldDEh"),
		refused("malformed Authorization", "scheme only", "", "Authorization", "Bearer"),
		refused("malformed Authorization", "token without scheme", "", "Authorization", f.tokenA),
		refused("malformed Authorization", "garbage token", "garbage"),
		{kind: "malformed Authorization", name: "oversized token", method: "PATCH", path: acc, body: body,
			token: strings.Repeat("a", 5000), status: 431, socket: true},
		refused("forged JWT: bad signature", "one character changed", parts[0]+"."+parts[1]+"."+string(sig)),
		refused("forged JWT: bad signature", "signature removed", parts[0]+"."+parts[1]+"."),
		refused("forged JWT: alg none", "unsigned", forge(t, f.tokenA, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, keep)),
		refused("forged JWT: wrong secret", "another secret", forge(t, f.tokenA, jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx"), keep)),
		refused("forged JWT: wrong secret", "empty secret", forge(t, f.tokenA, jwt.SigningMethodHS256, []byte{}, keep)),
		refused("forged JWT: other algorithm", "HS512 with the right secret", forge(t, f.tokenA, jwt.SigningMethodHS512, secret, keep)),
		refused("forged JWT: tampered claims", "subject changed, signature kept", parts[0]+"."+tamperedPayload+"."+parts[2]),
		refused("forged JWT: tampered claims", "wrong audience", hs256(func(c jwt.MapClaims) { c["aud"] = []string{"other"} })),
		refused("forged JWT: tampered claims", "wrong issuer", hs256(func(c jwt.MapClaims) { c["iss"] = "evil" })),
		refused("forged JWT: tampered claims", "no expiry", hs256(func(c jwt.MapClaims) { delete(c, "exp") })),
		refused("expired token", "expired a minute ago", hs256(func(c jwt.MapClaims) {
			c["exp"], c["iat"] = now.Add(-time.Minute).Unix(), now.Add(-time.Hour).Unix()
		})),
		refused("token issued in the future", "iat in an hour", hs256(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Hour).Unix() })),
		refused("ended session", "signed out", f.revokedA),
		refused("unknown session", "no such session row", hs256(func(c jwt.MapClaims) { c["jti"] = uuid.NewString() })),
		refused("session of another user", "B's subject on A's session", hs256(func(c jwt.MapClaims) { c["sub"] = f.userB.String() })),
	}
}

// validationCases are well-formed requests whose values break the rules:
// ids, enums, lengths, addresses, passwords, tokens, versions, signatures.
func validationCases(f *abuseFixture) []abuseCase {
	acc := "/v1/accounts/" + f.accountA
	addr, user, feature := acc+"/billing-address", acc+"/user", acc+"/feature-request"
	a := f.tokenA
	get := func(kind, name, path string) abuseCase {
		return abuseCase{kind: kind, name: name, method: "GET", path: path, token: a, status: 404}
	}
	post := func(kind, name, method, path string, body any, status int, field string) abuseCase {
		return abuseCase{kind: kind, name: name, method: method, path: path, body: body, status: status, field: field}
	}
	own := func(kind, name, method, path string, body any, status int, field string) abuseCase {
		return abuseCase{kind: kind, name: name, method: method, path: path, body: body, token: a, status: status, field: field}
	}
	long := func(n int) string { return strings.Repeat("é", n) }
	shapedToken := strings.Repeat("A", 43)
	event := `{"id":"evt_x","object":"event","type":"checkout.session.completed","data":{"object":{"id":"cs_x"}}}`
	hook := func(name, signature string) abuseCase {
		c := post("bad webhook signature", name, "POST", "/v1/webhooks/stripe", event, 400, "")
		if signature != "" {
			c.headers = []string{"Stripe-Signature", signature}
		}
		return c
	}
	return []abuseCase{
		get("invalid UUID in path", "word", "/v1/accounts/not-a-uuid"),
		get("invalid UUID in path", "no dashes", "/v1/accounts/"+strings.ReplaceAll(f.accountA, "-", "")),
		get("invalid UUID in path", "braces", "/v1/accounts/%7B"+f.accountA+"%7D"),
		get("invalid UUID in path", "urn form", "/v1/accounts/urn:uuid:"+f.accountA),
		get("invalid UUID in path", "one character more", "/v1/accounts/"+f.accountA+"0"),
		get("invalid UUID in path", "non-UTF-8", "/v1/accounts/%ff%fe"),
		get("invalid UUID in path", "nil uuid", "/v1/accounts/"+uuid.Nil.String()),
		get("invalid UUID in path", "pricing", "/v1/pricing/12"),
		own("invalid UUID in path", "invoice", "POST", acc+"/invoices/not-a-uuid/download", nil, 404, ""),
		own("bad VAT id", "lowercase", "PATCH", addr, with(validAddress(), "vat_id", "be0123456789"), 422, "vat_id"),
		own("bad VAT id", "too short", "PATCH", addr, with(validAddress(), "vat_id", "BE123"), 422, "vat_id"),
		own("bad VAT id", "too long", "PATCH", addr, with(validAddress(), "vat_id", "BE0123456789012"), 422, "vat_id"),
		own("bad VAT id", "inner space", "PATCH", addr, with(validAddress(), "vat_id", "BE 0123456789"), 422, "vat_id"),
		own("bad VAT id", "digits first", "PATCH", addr, with(validAddress(), "vat_id", "12BE345678"), 422, "vat_id"),
		own("unknown plan", "GOLD", "POST", acc+"/subscription", map[string]any{"plan": "GOLD"}, 422, "plan"),
		own("unknown plan", "TRIAL is not for sale", "PATCH", acc+"/subscription", map[string]any{"plan": "TRIAL"}, 422, "plan"),
		own("unknown plan", "lowercase", "POST", acc+"/subscription", map[string]any{"plan": "starter"}, 422, "plan"),
		own("unknown feature_area", "made up", "POST", feature, featureRequest("feature_area", "PRODUCT_NUKES"), 422, "feature_area"),
		own("unknown feature_profile", "made up", "POST", feature, featureRequest("feature_profile", "CEO"), 422, "feature_profile"),
		post("unknown preferred_language", "sign-up de", "POST", signup, with(signupBody("de@example.com"), "preferred_language", "de"), 422, "preferred_language"),
		own("unknown preferred_language", "user xx", "PATCH", user, map[string]any{"preferred_language": "xx"}, 422, "preferred_language"),
		post("unknown preferred_language", "Google sign-in EN", "POST", "/v1/auth/oidc-signin", map[string]any{"preferred_language": "EN"}, 422, "preferred_language"),
		own("unknown country", "xx_XX", "PATCH", addr, with(validAddress(), "country", "xx_XX"), 422, "country"),
		own("unknown country", "BE", "PATCH", addr, with(validAddress(), "country", "BE"), 422, "country"),
		own("unknown country", "lowercase locale", "PATCH", addr, with(validAddress(), "country", "nl_be"), 422, "country"),
		post("oversized names", "first name", "POST", signup, with(signupBody("long@example.com"), "firstname", long(101)), 422, "firstname"),
		own("oversized names", "last name", "PATCH", user, map[string]any{"lastname": long(101)}, 422, "lastname"),
		own("oversized names", "account name", "PATCH", acc, map[string]any{"name": long(101)}, 422, "name"),
		own("oversized names", "organization", "PATCH", addr, with(validAddress(), "organization_name", long(101)), 422, "organization_name"),
		own("oversized names", "city", "PATCH", addr, with(validAddress(), "city", long(101)), 422, "city"),
		own("oversized names", "street additional", "PATCH", addr, with(validAddress(), "street_additional", long(101)), 422, "street_additional"),
		own("oversized names", "feature description", "POST", feature, featureRequest("feature_description", long(5001)), 422, "feature_description"),
		post("oversized names", "e-mail", "POST", signup, with(signupBody(""), "email", strings.Repeat("a", 250)+"@b.co"), 422, "email"),
		post("oversized names", "sign-up password", "POST", signup, with(signupBody("pw@example.com"), "password", "A1!"+strings.Repeat("a", 126)), 422, "password"),
		post("oversized names", "sign-in password", "POST", signin, map[string]any{"email": "abuse-a@example.com", "password": strings.Repeat("A", 129)}, 422, "password"),
		own("oversized names", "mandate id", "DELETE", acc+"/billing/payment-methods", map[string]any{"mandate_id": strings.Repeat("p", 256)}, 422, "mandate_id"),
		own("undersized names", "account name", "PATCH", acc, map[string]any{"name": "ab"}, 422, "name"),
		own("undersized names", "blank account name", "PATCH", acc, map[string]any{"name": "   "}, 422, "name"),
		own("undersized names", "organization", "PATCH", addr, with(validAddress(), "organization_name", "AB"), 422, "organization_name"),
		post("undersized names", "blank first name", "POST", signup, with(signupBody("blank@example.com"), "firstname", "  "), 422, "firstname"),
		post("invalid e-mails", "no at", "POST", signup, signupBody("not-an-email"), 422, "email"),
		post("invalid e-mails", "no dot", "POST", signup, signupBody("a@b"), 422, "email"),
		post("invalid e-mails", "space", "POST", signup, signupBody("a b@c.de"), 422, "email"),
		post("invalid e-mails", "two ats", "POST", signup, signupBody("a@b@c.de"), 422, "email"),
		own("invalid e-mails", "e-mail change", "PATCH", user, map[string]any{"email": "x@"}, 422, "email"),
		post("invalid e-mails", "reset request", "POST", resetReq, map[string]any{"email": "nope"}, 422, "email"),
		post("invalid e-mails", "activation resend", "POST", resend, map[string]any{"email": "@example.com"}, 422, "email"),
		post("invalid e-mails", "empty sign-in", "POST", signin, map[string]any{"email": "", "password": "Secret1!"}, 422, "email"),
		post("weak passwords", "no capital, digit or symbol", "POST", signup, with(signupBody("weak@example.com"), "password", "password"), 422, "password"),
		post("weak passwords", "no symbol", "POST", signup, with(signupBody("weak@example.com"), "password", "Secret12"), 422, "password"),
		post("weak passwords", "accented letter", "POST", signup, with(signupBody("weak@example.com"), "password", "Sécret1!"), 422, "password"),
		post("weak passwords", "too short", "POST", signup, with(signupBody("weak@example.com"), "password", "Se1!"), 422, "password"),
		post("weak passwords", "reset", "POST", reset, map[string]any{"password": "abc", "token": shapedToken}, 422, "password"),
		own("weak passwords", "change", "PATCH", user, map[string]any{"password": "weak"}, 422, "password"),
		post("terms not accepted", "sign-up", "POST", signup, with(signupBody("terms@example.com"), "opt_in_terms_of_use", false), 422, "opt_in_terms_of_use"),
		post("terms not accepted", "Google sign-up", "POST", "/v1/auth/oidc-signup", map[string]any{}, 422, "opt_in_terms_of_use"),
		post("foreign redirect", "sign-up root domain", "POST", signup, with(signupBody("evil@example.com"), "root_domain", "https://evil.example"), 422, "root_domain"),
		post("foreign redirect", "root domain with a path", "POST", "/v1/auth/oidc-signin", map[string]any{"root_domain": "http://127.0.0.1:8080/phish"}, 422, "root_domain"),
		post("malformed mail token", "short", "PUT", activate, map[string]any{"token": "abc"}, 404, ""),
		post("malformed mail token", "well shaped, unknown", "PUT", activate, map[string]any{"token": shapedToken}, 404, ""),
		post("malformed mail token", "reset, short", "POST", reset, map[string]any{"password": "Secret1!", "token": "abc"}, 404, ""),
		post("malformed mail token", "reset, unknown", "POST", reset, map[string]any{"password": "Secret1!", "token": shapedToken}, 404, ""),
		own("stale or bad version", "stale version", "PATCH", addr, with(validAddress(), "version", 7), 409, ""),
		own("stale or bad version", "negative version", "PATCH", addr, with(validAddress(), "version", -1), 422, "version"),
		{kind: "stale or bad version", name: "If-Match not a number", method: "PATCH", path: addr, body: validAddress(), token: a, status: 400, headers: []string{"If-Match", `"abc"`}},
		{kind: "stale or bad version", name: "If-Match zero", method: "PATCH", path: addr, body: validAddress(), token: a, status: 400, headers: []string{"If-Match", "0"}},
		{kind: "stale or bad version", name: "If-Match stale", method: "PATCH", path: addr, body: validAddress(), token: a, status: 409, headers: []string{"If-Match", `"7"`}},
		hook("no signature", ""),
		hook("garbled signature", "t=abc,v1=zz"),
		hook("wrong signature", "t="+strconv.FormatInt(time.Now().Unix(), 10)+",v1="+strings.Repeat("ab", 32)),
		post("unknown checkout", "pay", "POST", "/sandbox/checkout/nope/pay", nil, 404, ""),
		post("unknown checkout", "fail", "POST", "/sandbox/checkout/nope/fail", nil, 404, ""),
		post("unknown checkout", "page", "GET", "/sandbox/checkout/nope", nil, 404, ""),
		post("oversized query", "state", "PUT", "/v1/auth/callback?code=c&state="+strings.Repeat("s", 300), nil, 400, ""),
		post("oversized query", "code", "PUT", "/v1/auth/callback?state=s&code="+strings.Repeat("c", 3000), nil, 400, ""),
		post("unknown route or method", "admin", "GET", "/v1/admin", nil, 404, ""),
		post("unknown route or method", "DELETE sign-in", "DELETE", signin, nil, 404, ""),
		own("unknown route or method", "PUT account", "PUT", acc, map[string]any{"name": "Acme Corp"}, 404, ""),
		own("unknown route or method", "DELETE account list", "DELETE", "/v1/accounts", nil, 404, ""),
		own("invalid UUID in path", "member", "PATCH", acc+"/members/not-a-uuid", map[string]any{"role": "admin"}, 404, ""),
		own("invalid UUID in path", "invitation", "DELETE", acc+"/invitations/not-a-uuid", nil, 404, ""),
		own("bad role", "owner by invitation", "POST", acc+"/invitations", map[string]any{"email": "x@example.com", "role": "owner"}, 422, "role"),
		own("bad role", "unknown", "POST", acc+"/invitations", map[string]any{"email": "x@example.com", "role": "root"}, 422, "role"),
		own("bad e-mail", "invitation", "POST", acc+"/invitations", map[string]any{"email": "nobody", "role": "member"}, 422, "email"),
		own("bad user id", "transfer", "POST", acc+"/transfer-ownership", map[string]any{"user_id": "x", "current_password": "Secret1!"}, 422, "user_id"),
		post("unknown invitation", "preview", "GET", "/v1/invitations/"+strings.Repeat("A", 43), nil, 404, ""),
		own("nothing to change", "empty user update", "PATCH", user, map[string]any{}, 400, ""),
		own("unknown mandate", "made up", "DELETE", acc+"/billing/payment-methods", map[string]any{"mandate_id": "pm_nope"}, 404, ""),
		get("invalid UUID in path", "timeline", "/v1/accounts/not-a-uuid/billing/timeline"),
		get("another account", "B's timeline", "/v1/accounts/"+f.accountB+"/billing/timeline"),
		own("bad page", "timeline limit 0", "GET", acc+"/billing/timeline?limit=0", nil, 422, "limit"),
		own("bad page", "timeline limit 101", "GET", acc+"/billing/timeline?limit=101", nil, 422, "limit"),
		own("bad page", "timeline limit not a number", "GET", acc+"/billing/timeline?limit=ten", nil, 422, "limit"),
		own("bad page", "timeline cursor made up", "GET", acc+"/billing/timeline?before=bm9wZQ", nil, 422, "before"),
		own("bad page", "timeline cursor oversized", "GET", acc+"/billing/timeline?before="+strings.Repeat("A", 500), nil, 422, "before"),
		// A taken address answers like a free one (no enumeration): what
		// refuses it here is the missing proof of the current password.
		own("taken e-mail", "B's address without the current password", "PATCH", user, map[string]any{"email": "ABUSE-B@example.com"}, 422, "current_password"),
		own("wrong current password", "e-mail change", "PATCH", user, map[string]any{"email": "new@example.com", "current_password": "Wrong1!x"}, 422, "current_password"),
	}
}

// injectionCases carry SQL-ish and script strings wherever input goes: paths,
// queries, enums, e-mails, tokens. Every one must be refused as data.
func injectionCases(f *abuseFixture) []abuseCase {
	acc := "/v1/accounts/" + f.accountA
	addr := acc + "/billing-address"
	a := f.tokenA
	const sql = "'; DROP TABLE users; --"
	const script = "<script>alert(1)</script>"
	c := func(kind, name, method, path, token string, body any, status int, field string) abuseCase {
		return abuseCase{kind: kind, name: name, method: method, path: path, token: token, body: body, status: status, field: field}
	}
	return []abuseCase{
		c("SQL-ish strings", "account id", "GET", "/v1/accounts/'%3B%20DROP%20TABLE%20users%3B%20--", a, nil, 404, ""),
		c("SQL-ish strings", "sign-in e-mail", "POST", signin, "", map[string]any{"email": "' OR 1=1 --", "password": "x"}, 422, "email"),
		c("SQL-ish strings", "sign-in password", "POST", signin, "", map[string]any{"email": "admin'--@example.com", "password": "' OR '1'='1"}, 401, ""),
		c("SQL-ish strings", "reset e-mail", "POST", resetReq, "", map[string]any{"email": "x@y.z" + sql}, 422, "email"),
		c("SQL-ish strings", "country", "PATCH", addr, a, with(validAddress(), "country", "nl_BE"+sql), 422, "country"),
		c("SQL-ish strings", "VAT id", "PATCH", addr, a, with(validAddress(), "vat_id", "BE0123456789"+sql), 422, "vat_id"),
		c("SQL-ish strings", "plan", "POST", acc+"/subscription", a, map[string]any{"plan": "STARTER" + sql}, 422, "plan"),
		c("SQL-ish strings", "feature area", "POST", acc+"/feature-request", a, featureRequest("feature_area", "OTHER' OR '1'='1"), 422, "feature_area"),
		c("SQL-ish strings", "activation token", "PUT", activate, "", map[string]any{"token": sql}, 404, ""),
		c("SQL-ish strings", "mandate id", "DELETE", acc+"/billing/payment-methods", a, map[string]any{"mandate_id": "' OR '1'='1"}, 404, ""),
		c("SQL-ish strings", "callback state", "PUT", "/v1/auth/callback?state=%27%20OR%201%3D1%20--&code=x", "", nil, 404, ""),
		c("SQL-ish strings", "sandbox checkout id", "POST", "/sandbox/checkout/'%20OR%20'1'%3D'1/pay", "", nil, 404, ""),
		c("SQL-ish strings", "language", "PATCH", acc+"/user", a, map[string]any{"preferred_language": "en" + sql}, 422, "preferred_language"),
		c("SQL-ish strings", "timeline cursor", "GET", acc+"/billing/timeline?before=%27%20OR%201%3D1%20--", a, nil, 422, "before"),
		c("SQL-ish strings", "timeline limit", "GET", acc+"/billing/timeline?limit=1%3B%20DROP%20TABLE%20users", a, nil, 422, "limit"),
		c("script strings", "VAT id", "PATCH", addr, a, with(validAddress(), "vat_id", script), 422, "vat_id"),
		c("script strings", "country", "PATCH", addr, a, with(validAddress(), "country", `<img src=x onerror=alert(1)>`), 422, "country"),
		c("script strings", "language", "PATCH", acc+"/user", a, map[string]any{"preferred_language": script}, 422, "preferred_language"),
		c("script strings", "feature profile", "POST", acc+"/feature-request", a, featureRequest("feature_profile", script), 422, "feature_profile"),
		c("script strings", "account id", "GET", "/v1/accounts/%3Cscript%3Ealert(1)%3C%2Fscript%3E", a, nil, 404, ""),
		c("script strings", "root domain", "POST", signup, "", with(signupBody("js@example.com"), "root_domain", "javascript:alert(1)"), 422, "root_domain"),
		c("script strings", "name of a refused sign-up", "POST", signup, "", with(signupBody("xss@example.com"), "firstname", script, "opt_in_terms_of_use", false), 422, "opt_in_terms_of_use"),
		c("script strings", "sandbox checkout id", "GET", "/sandbox/checkout/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "", nil, 404, ""),
		c("script strings", "mandate id", "DELETE", acc+"/billing/payment-methods", a, map[string]any{"mandate_id": script}, 404, ""),
		c("script strings", "timeline cursor", "GET", acc+"/billing/timeline?before=%3Cscript%3Ealert(1)%3C%2Fscript%3E", a, nil, 422, "before"),
	}
}
