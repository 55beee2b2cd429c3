package reqparse

import (
	"encoding/json"
	"errors"
	"mime"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"

	"kudos"
)

// The payload shapes of the api's handlers: strings and booleans (sign-up),
// an embedded struct whose field an outer pointer shadows (billing address
// with version), optional pointers (user update).
type (
	signupShape struct {
		Firstname string `json:"firstname"`
		Email     string `json:"email"`
		OptIn     bool   `json:"opt_in_terms_of_use"`
	}
	address struct {
		City    string `json:"city"`
		VATID   string `json:"vat_id,omitempty"`
		Version int    `json:"version"`
	}
	addressShape struct {
		address
		Version *int `json:"version"`
	}
	updateShape struct {
		Lastname *string `json:"lastname"`
		OptIn    *bool   `json:"opt_in_marketing"`
	}
)

var shapes = []func() any{
	func() any { return new(signupShape) },
	func() any { return new(addressShape) },
	func() any { return new(updateShape) },
}

// jsonNames returns the JSON field names of a struct type, those of embedded
// structs included.
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "":
			names = append(names, jsonNames(f.Type)...)
		case name != "" && name != "-":
			names = append(names, name)
		}
	}
	return names
}

// containsFold reports whether list holds s up to case, as encoding/json
// matches field names.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// FuzzDecodeJSON: a body is refused unless it is one UTF-8 JSON object of
// known fields, always as a 400; what is accepted decodes the same after a
// round trip through encoding. A Content-Type is accepted only if it names
// JSON.
func FuzzDecodeJSON(f *testing.F) {
	f.Add("application/json", []byte(`{"email":"a@b.co","firstname":"Ada"}`))
	f.Add("application/json; charset=utf-8", []byte(`{"city":"Gent","version":2}`))
	f.Add("text/plain", []byte(`{"lastname":null,"opt_in_marketing":true}`))
	f.Add("application/problem+json", []byte(`{"city":"x"}}`))
	f.Add("", []byte("[1,2]"))
	f.Add("application/json", []byte("{\"firstname\":\"\xff\"}"))
	f.Add("application/json", []byte(`{"version":"3"} `))
	f.Add("application/json", []byte(`{"EMAIL":"a@b.co"}{}`))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		if IsJSONContentType(contentType) {
			mt, _, err := mime.ParseMediaType(contentType)
			if err != nil || mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
				t.Fatalf("accepted Content-Type %q", contentType)
			}
		}
		for _, newShape := range shapes {
			v := newShape()
			err := DecodeJSON(body, v)
			if err != nil {
				var kerr *kudos.Error
				if !errors.As(err, &kerr) || kerr.Code != kudos.EBadRequest || kerr.Message == "" {
					t.Fatalf("%T: refusal %v is not a 400", v, err)
				}
				continue
			}
			var fields map[string]json.RawMessage
			if !utf8.Valid(body) || json.Unmarshal(body, &fields) != nil || fields == nil {
				t.Fatalf("%T: accepted %q, not one UTF-8 JSON object", v, body)
			}
			known := jsonNames(reflect.TypeOf(v).Elem())
			for name := range fields {
				if !containsFold(known, name) {
					t.Fatalf("%T: accepted unknown field %q", v, name)
				}
			}
			again := newShape()
			if enc, err := json.Marshal(v); err != nil || DecodeJSON(enc, again) != nil || !reflect.DeepEqual(v, again) {
				t.Fatalf("%T: %+v does not round-trip (%s)", v, v, enc)
			}
		}
	})
}

// FuzzID: a path id is accepted only in the canonical form, which names
// exactly the UUID it parses to; everything else is a 404.
func FuzzID(f *testing.F) {
	f.Add(uuid.NewString())
	f.Add(strings.ToUpper(uuid.NewString()))
	f.Add("{" + uuid.NewString() + "}")
	f.Add("urn:uuid:" + uuid.NewString())
	f.Add("not-a-uuid")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ID(s)
		if err != nil {
			if kudos.ErrorCode(err) != kudos.ENotFound || id != uuid.Nil {
				t.Fatalf("ID(%q) = %v, %v: want a 404", s, id, err)
			}
			return
		}
		if !strings.EqualFold(id.String(), s) {
			t.Fatalf("ID accepted %q as %v", s, id)
		}
	})
}
