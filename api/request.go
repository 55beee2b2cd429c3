package api

import (
	"bytes"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
	"kudos/internal/reqparse"
)

// decodeJSON reads the request body into v. The body must be one JSON object
// with no unknown fields, sent as application/json; anything else is a 400
// that names the problem (reqparse.DecodeJSON has the rules).
func decodeJSON(c fiber.Ctx, v any) error {
	body := c.Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return kudos.Errorf(kudos.EBadRequest, "a JSON body is required")
	}
	// A form or text/plain post is what a browser sends cross-site without
	// asking: it is never taken for JSON.
	if !reqparse.IsJSONContentType(c.Get(fiber.HeaderContentType)) {
		return kudos.Errorf(kudos.EBadRequest, "the Content-Type must be application/json")
	}
	return reqparse.DecodeJSON(body, v)
}

// pathUUID parses a path parameter as a UUID (reqparse.ID): a malformed id
// is 404 like any id the caller may not see.
func pathUUID(c fiber.Ctx, name string) (uuid.UUID, error) {
	return reqparse.ID(c.Params(name))
}
