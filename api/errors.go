package api

import (
	"errors"
	"log/slog"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"kudos"
)

// errorBody is the one error shape of ARCHITECTURE §4.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Status  int               `json:"status"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// statusOf maps error codes to HTTP statuses.
var statusOf = map[string]int{
	kudos.EBadRequest:              fiber.StatusBadRequest,
	kudos.EUnauthorized:            fiber.StatusUnauthorized,
	kudos.EForbidden:               fiber.StatusForbidden,
	kudos.ENotActivated:            fiber.StatusForbidden,
	kudos.ENotFound:                fiber.StatusNotFound,
	kudos.EConflict:                fiber.StatusConflict,
	kudos.ESeatLimit:               fiber.StatusConflict,
	kudos.EAccountBeingDeleted:     fiber.StatusConflict,
	kudos.EPriceChanged:            fiber.StatusConflict,
	kudos.EInvitationEmailMismatch: fiber.StatusForbidden,
	kudos.EEmailNotVerified:        fiber.StatusForbidden,
	kudos.EReauthRequired:          fiber.StatusForbidden,
	kudos.ESecondFactorRequired:    fiber.StatusForbidden,
	kudos.EMFAEnrolmentRequired:    fiber.StatusForbidden,
	kudos.ETooLarge:                fiber.StatusRequestEntityTooLarge,
	kudos.EInvalid:                 fiber.StatusUnprocessableEntity,
	kudos.ERateLimited:             fiber.StatusTooManyRequests,
	kudos.EPasswordMismatch:        444,
	kudos.EInternal:                fiber.StatusInternalServerError,
	kudos.EUnavailable:             fiber.StatusServiceUnavailable,
}

// catalogue is the SPEC §8 status → message mapping, used when an error
// carries no message of its own and for every internal error. The UI's
// copy, ui/src/lib/error-catalogue.json, is generated from it (ErrorCatalogue).
//
//go:generate go test -count=1 -run ^TestErrorCatalogueFile$ . -update-catalogue
var catalogue = map[int]string{
	400: "Bad request response",
	401: "Unauthorized",
	403: "Not authorized",
	404: "Not found",
	409: "Edit conflict",
	413: "Payload too large",
	422: "Unprocessable entity",
	429: "Too many requests",
	431: "Request header fields too large",
	444: "Passwords do not match",
	500: "Internal server error",
	503: "Service unavailable",
}

// codeOfStatus gives the code for a bare HTTP status (from Fiber itself).
var codeOfStatus = map[int]string{}

// refinedCodes are the codes that narrow another code's status (403, 409):
// never the default code of a bare status.
var refinedCodes = map[string]bool{kudos.ENotActivated: true, kudos.ESeatLimit: true, kudos.EAccountBeingDeleted: true, kudos.EPriceChanged: true, kudos.EInvitationEmailMismatch: true,
	kudos.EEmailNotVerified: true, kudos.EReauthRequired: true, kudos.ESecondFactorRequired: true, kudos.EMFAEnrolmentRequired: true}

func init() {
	for code, status := range statusOf {
		if !refinedCodes[code] {
			codeOfStatus[status] = code
		}
	}
}

// CatalogueEntry is one status of the error catalogue: the code and the
// message an error answer with that status carries by default.
type CatalogueEntry struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ErrorCatalogue returns the catalogue by status, with each status's default
// code (the one ErrorHandler gives a bare status).
func ErrorCatalogue() map[int]CatalogueEntry {
	out := make(map[int]CatalogueEntry, len(catalogue))
	for status, message := range catalogue {
		out[status] = CatalogueEntry{Code: defaultCode(status), Message: message}
	}
	return out
}

// defaultCode is the code of an error answer that has only a status.
func defaultCode(status int) string {
	if code, ok := codeOfStatus[status]; ok {
		return code
	}
	if status >= 500 {
		return kudos.EInternal
	}
	return kudos.EBadRequest
}

// Message returns the SPEC §8 message for status.
func Message(status int) string {
	if m, ok := catalogue[status]; ok {
		return m
	}
	return "Error"
}

// ErrorHandler is Fiber's error handler: the single place where an error
// becomes an HTTP answer. Internal errors are logged with the request id and
// answered with the generic message only.
func ErrorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c fiber.Ctx, err error) error {
		body := errorDetail{}
		var kerr *kudos.Error
		var ferr *fiber.Error
		switch {
		case errors.As(err, &kerr):
			body.Code, body.Message, body.Fields = kerr.Code, kerr.Message, kerr.Fields
			body.Status = statusOf[kerr.Code]
			if body.Status == 0 {
				body.Status = fiber.StatusInternalServerError
			}
			if kerr.Code == kudos.ERateLimited && kerr.RetryAfter > 0 {
				c.Set(fiber.HeaderRetryAfter, strconv.Itoa(kerr.RetryAfter))
			}
		case errors.As(err, &ferr):
			body.Status, body.Code = ferr.Code, defaultCode(ferr.Code)
		default:
			body.Status, body.Code = fiber.StatusInternalServerError, kudos.EInternal
		}
		if body.Status >= 500 && body.Code == kudos.EInternal && (kerr == nil || kerr.Message == "") {
			log.ErrorContext(c.Context(), "internal error", "request_id", requestID(c), "method", c.Method(),
				"path", loggedPath(c), "err", err)
			body.Message = ""
		}
		if body.Message == "" {
			body.Message = Message(body.Status)
		}
		// Also for errors raised before the middleware ran (a body or
		// header refused by the server itself): no answer of the api is
		// cached.
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(body.Status).JSON(errorBody{Error: body})
	}
}
