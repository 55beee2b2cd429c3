package api

import (
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos/auth"
)

// deviceCookie names the cookie that tells a browser which signed in before
// (auth.Devices). It goes to the auth routes only, never to scripts.
const deviceCookie = "kudos_device"

// setDeviceCookie leaves in the browser the signed proof that it signed in
// as userID (renewed at every sign-in, for auth.DeviceTTL). Secure outside
// development; SameSite=Lax.
func (s *Server) setDeviceCookie(c fiber.Ctx, userID uuid.UUID) {
	expires := s.DB.Now().Add(auth.DeviceTTL)
	c.Cookie(&fiber.Cookie{Name: deviceCookie, Value: s.devices.Issue(userID, expires), Path: "/v1/auth",
		Expires: expires, MaxAge: int(auth.DeviceTTL.Seconds()), HTTPOnly: true, Secure: !s.Config.IsDevelopment(),
		SameSite: fiber.CookieSameSiteLaxMode})
}

// knownDevice reports whether the request comes from a browser that signed
// in as userID before (a valid device cookie of that user, issued since
// the user's device cookies count: proving a never-activated user's
// address voids the stranger's, issue 35).
func (s *Server) knownDevice(c fiber.Ctx, userID uuid.UUID) bool {
	v := c.Cookies(deviceCookie)
	if v == "" || !s.devices.Valid(v, userID, s.DB.Now()) {
		return false
	}
	from, err := s.DB.DevicesValidFrom(ctx(c), userID)
	return err == nil && s.devices.IssuedSince(v, from)
}
