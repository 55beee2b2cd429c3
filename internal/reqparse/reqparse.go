// Package reqparse parses what clients send the api: JSON bodies, their
// Content-Type, and ids in paths. It knows nothing of the HTTP framework, so
// that each parser can be fuzzed on its own (and cheaply). Every refusal is a
// *kudos.Error: EBadRequest for bodies, ENotFound for ids.
package reqparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"kudos"
)

// IsJSONContentType reports whether a Content-Type header names JSON
// (application/json or an application/…+json type, with any parameters).
func IsJSONContentType(header string) bool {
	mt, _, err := mime.ParseMediaType(header)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// DecodeJSON reads body into v. The body must be UTF-8 (RFC 8259; the
// decoder would silently replace bad bytes) and hold exactly one JSON object
// whose fields v knows, with nothing after it but spaces. Anything else is a
// 400 that names the problem.
func DecodeJSON(body []byte, v any) error {
	if !utf8.Valid(body) {
		return kudos.Errorf(kudos.EBadRequest, "the body must be UTF-8")
	}
	if trimmed := trimJSONSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return kudos.Errorf(kudos.EBadRequest, "the body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return &kudos.Error{Code: kudos.EBadRequest, Message: fmt.Sprintf("field %q must be a %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String())),
				Fields: map[string]string{typeErr.Field: kudos.FInvalidValue}}
		case errors.As(err, &typeErr):
			return kudos.Errorf(kudos.EBadRequest, "the body must be a JSON object")
		case errors.As(err, &syntaxErr):
			return kudos.Errorf(kudos.EBadRequest, "malformed JSON at byte %d", syntaxErr.Offset)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return kudos.Errorf(kudos.EBadRequest, "unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
		default:
			return kudos.Errorf(kudos.EBadRequest, "malformed JSON")
		}
	}
	// Decoder.More would let a stray "}" or "]" through.
	if len(trimJSONSpace(body[dec.InputOffset():])) != 0 {
		return kudos.Errorf(kudos.EBadRequest, "the body must hold one JSON object")
	}
	return nil
}

// trimJSONSpace trims JSON's whitespace (space, tab, line feed, carriage
// return) from both ends of b: not bytes.TrimSpace's, which also takes a
// vertical tab, a form feed or a no-break space after the object for
// whitespace and so accepted a body that is not JSON.
func trimJSONSpace(b []byte) []byte { return bytes.Trim(b, " \t\n\r") }

func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "struct", "map":
		return "object"
	case "slice", "array":
		return "list"
	default:
		return "number"
	}
}

// ID parses an id from a path. Only the canonical 36-character form of a
// UUID (in either case) is accepted, not the other spellings uuid.Parse knows
// (braces, urn:uuid:, no dashes): one id, one path. A malformed id cannot
// name anything, so it is 404 like any id the caller may not see.
func ID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 {
		return uuid.Nil, kudos.NotFound()
	}
	return id, nil
}
