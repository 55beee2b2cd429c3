package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

// decodeJSON reads the request body into v. The body must be one JSON object
// with no unknown fields; anything else is a 400 that names the problem.
func decodeJSON(c fiber.Ctx, v any) error {
	body := c.Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return kudos.Errorf(kudos.EBadRequest, "a JSON body is required")
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
	if dec.More() {
		return kudos.Errorf(kudos.EBadRequest, "the body must hold one JSON object")
	}
	return nil
}

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

// pathUUID parses a path parameter as a UUID. A malformed id cannot name
// anything, so it is 404 like any id the caller may not see.
func pathUUID(c fiber.Ctx, name string) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params(name))
	if err != nil || len(c.Params(name)) != 36 {
		return uuid.Nil, kudos.Errorf(kudos.ENotFound, "Not found")
	}
	return id, nil
}
