package reqparse

import (
	"testing"

	"kudos"
)

func TestDecodeJSON(t *testing.T) {
	for name, tc := range map[string]struct {
		body string
		ok   bool
	}{
		"object":           {`{"email":"a@b.co"}`, true},
		"spaces around":    {" \n{\"email\":\"a@b.co\"}\t ", true},
		"unknown field":    {`{"email":"a@b.co","admin":true}`, false},
		"wrong type":       {`{"email":1}`, false},
		"null":             {`null`, false},
		"list":             {`[{"email":"a@b.co"}]`, false},
		"trailing brace":   {`{"email":"a@b.co"}}`, false},
		"trailing bracket": {`{"email":"a@b.co"}]`, false},
		"second object":    {`{"email":"a@b.co"}{}`, false},
		"invalid UTF-8":    {"{\"email\":\"\xff@b.co\"}", false},
		"byte order mark":  {"\uFEFF{\"email\":\"a@b.co\"}", false},
		"unterminated":     {`{"email":"a@b.co"`, false},
		"empty":            {``, false},
	} {
		t.Run(name, func(t *testing.T) {
			var v struct {
				Email string `json:"email"`
			}
			err := DecodeJSON([]byte(tc.body), &v)
			if (err == nil) != tc.ok || err != nil && kudos.ErrorCode(err) != kudos.EBadRequest {
				t.Fatalf("DecodeJSON(%q) = %v, want ok=%v", tc.body, err, tc.ok)
			}
		})
	}
}

func TestIsJSONContentType(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true, "Application/JSON": true,
		"application/merge-patch+json": true, "": false, "text/plain": false, "application/jsonp": false,
		"application/x-www-form-urlencoded": false, "multipart/form-data; boundary=x": false, "text/json+json": false,
	} {
		if got := IsJSONContentType(ct); got != want {
			t.Errorf("IsJSONContentType(%q) = %v, want %v", ct, got, want)
		}
	}
}
