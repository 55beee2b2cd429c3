package api

import (
	"net"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v3"

	"kudos"
)

// DevIdentityQueue queues the identity the development OIDC provider hands
// out on its next sign-in (tests and demos pick who "signs in with Google").
type DevIdentityQueue interface {
	QueueIdentity(subject, email string, emailVerified bool)
}

type devIdentityRequest struct {
	Subject       string `json:"subject"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
}

// registerDevRoutes adds the development-only routes: the capture inbox of
// ARCHITECTURE §4 (which fault tests can make refuse mail, as an SMTP
// server that is down would) and the OIDC identity queue. They do not exist in production.
func (s *Server) registerDevRoutes(r fiber.Router) {
	r.Get("/mailbox", func(c fiber.Ctx) error {
		if s.Inbox == nil {
			return kudos.Errorf(kudos.ENotFound, "the capture inbox is not running (SMTP_URL is set)")
		}
		return c.JSON(fiber.Map{"messages": s.Inbox.Messages(c.Query("to"))})
	})
	r.Post("/mailbox/refusing", func(c fiber.Ctx) error {
		if s.Inbox == nil {
			return kudos.Errorf(kudos.ENotFound, "the capture inbox is not running (SMTP_URL is set)")
		}
		var req struct {
			Refusing *bool `json:"refusing"`
		}
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
		if req.Refusing == nil {
			return kudos.FieldErrors{"refusing": kudos.FRequired}.Err()
		}
		s.Inbox.SetRefusing(*req.Refusing)
		return c.SendStatus(fiber.StatusNoContent)
	})
	r.Post("/oidc/identities", func(c fiber.Ctx) error {
		if s.DevOIDC == nil {
			return kudos.Errorf(kudos.ENotFound, "the development OIDC provider is not running")
		}
		var req devIdentityRequest
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
		if req.Subject == "" || kudos.ValidateEmail(req.Email) != "" {
			return kudos.FieldErrors{"subject": kudos.FRequired, "email": kudos.FInvalidEmail}.Err()
		}
		s.DevOIDC.QueueIdentity(req.Subject, req.Email, req.EmailVerified)
		return c.SendStatus(fiber.StatusNoContent)
	})
}

// forwardingHeaders are the headers a proxy adds: a request carrying one did
// not come straight from the developer's machine.
var forwardingHeaders = []string{fiber.HeaderXForwardedFor, "Forwarded", fiber.HeaderXForwardedHost,
	fiber.HeaderXForwardedProto, "X-Real-Ip"}

// loopbackOnly lets through only a request addressed to a loopback name
// (localhost, 127.0.0.0/8, ::1) that no proxy forwarded: a page on another
// site that rebinds its DNS name to 127.0.0.1 still sends its own Host, and
// a development instance put behind a proxy by mistake keeps its mailbox to
// itself. Anything else is 404, as in production.
func loopbackOnly(c fiber.Ctx) error {
	for _, h := range forwardingHeaders {
		if len(c.Request().Header.Peek(h)) > 0 {
			return kudos.NotFound()
		}
	}
	if !loopbackHost(string(c.Request().Host())) {
		return kudos.NotFound()
	}
	return c.Next()
}

// loopbackHost reports whether a Host header names this machine's loopback.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}
