package api

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
	"kudos/store"
)

// userUpdateRequest holds the fields of PATCH …/user; absent ones stay.
type userUpdateRequest struct {
	Firstname          *string `json:"firstname"`
	Lastname           *string `json:"lastname"`
	Email              *string `json:"email"`
	Password           *string `json:"password"`
	CurrentPassword    *string `json:"current_password"`
	OptInNotifications *bool   `json:"opt_in_notifications"`
	OptInMarketing     *bool   `json:"opt_in_marketing"`
	PreferredLanguage  *string `json:"preferred_language"`
}

// updateUser changes the caller's personal details, all or nothing. A new
// password or e-mail needs the current password (when the user has one): a
// stolen session alone cannot take the account over. A new e-mail must be
// confirmed by mail (the user is unactivated until then, the old address is
// told); a new password ends the user's other sessions and device cookies
// (this browser gets a fresh one) and is told by mail.
func (s *Server) updateUser(c fiber.Ctx) error {
	var req userUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	fe := kudos.FieldErrors{}
	upd := kudos.UserUpdate{OptInNotifications: req.OptInNotifications, OptInMarketing: req.OptInMarketing}
	for field, p := range map[string]**string{"firstname": &req.Firstname, "lastname": &req.Lastname} {
		if *p != nil {
			v := strings.TrimSpace(**p)
			*p = &v
			addIf(fe, field, kudos.ValidateName(v))
		}
	}
	upd.Firstname, upd.Lastname = req.Firstname, req.Lastname
	if req.PreferredLanguage != nil && !kudos.ValidLanguage(*req.PreferredLanguage) {
		fe.Add("preferred_language", kudos.FInvalidValue)
	}
	upd.PreferredLanguage = req.PreferredLanguage
	if req.Email != nil {
		e := kudos.NormalizeEmail(*req.Email)
		req.Email = &e
		addIf(fe, "email", kudos.ValidateEmail(e))
	}
	if req.Password != nil {
		addIf(fe, "password", kudos.ValidatePassword(*req.Password))
	}
	if req.CurrentPassword != nil && len(*req.CurrentPassword) > kudos.PasswordMaxLength {
		fe.Add("current_password", kudos.FTooLong)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if upd == (kudos.UserUpdate{}) && req.Email == nil && req.Password == nil {
		return kudos.Errorf(kudos.EBadRequest, "nothing to change")
	}
	sess := session(c)
	u, err := s.DB.UserByID(ctx(c), sess.UserID)
	if err != nil {
		return err
	}
	newEmail := req.Email != nil && *req.Email != u.Email
	if newEmail && u.SocialLogin {
		return kudos.Errorf(kudos.EForbidden, "the e-mail of a Google sign-in cannot be changed here")
	}
	if newEmail || req.Password != nil {
		if err := s.reauthenticate(c, u, req.CurrentPassword); err != nil {
			return err
		}
	}
	ch := store.UserChange{UserID: u.ID, Update: upd, KeepSession: sess.ID}
	if req.Password != nil {
		if ch.PasswordHash, err = s.Hasher.Hash(ctx(c), *req.Password); err != nil {
			return err
		}
		ch.Mails = append(ch.Mails, dispatch.Mail(kudos.MailRequest{Key: auth.NewKey(), Purpose: kudos.MailPasswordChanged,
			To: u.Email, Language: u.PreferredLanguage, Name: u.Firstname}))
	}
	if newEmail {
		ch.Email = s.emailChange(u, *req.Email)
	}
	if err := s.DB.ChangeUser(ctx(c), ch); err != nil {
		return err
	}
	if ch.PasswordHash != "" {
		s.setDeviceCookie(c, u.ID) // the change voided the others
	}
	if len(ch.Mails) > 0 || ch.Email != nil {
		s.Outbox.Kick()
	}
	return c.JSON(fiber.Map{})
}

// checkCurrentPassword verifies the current password given to confirm a
// change: missing or wrong is 422 on current_password; guesses are rate
// limited per user.
func (s *Server) checkCurrentPassword(c fiber.Ctx, u *kudos.User, given *string) error {
	if given == nil || *given == "" {
		return kudos.FieldErrors{"current_password": kudos.FRequired}.Err()
	}
	if err := allow(c, s.limits.reauth, u.ID.String()); err != nil {
		return err
	}
	ok, err := s.Hasher.Verify(ctx(c), *given, u.PasswordHash)
	if err != nil {
		return err
	}
	if !ok {
		return kudos.FieldErrors{"current_password": kudos.FWrongPassword}.Err()
	}
	return nil
}

// emailChange is the e-mail change of u to newEmail: a confirmation link
// to the new address, a notice to the old one, and, should the new address
// belong to someone else, a notice to them instead of the link (the store
// decides, so the answer is the same either way).
func (s *Server) emailChange(u *kudos.User, newEmail string) *store.EmailChange {
	lang := u.PreferredLanguage
	key := auth.NewKey()
	return &store.EmailChange{
		Confirm: s.activationToken(key, newEmail, lang, u.Firstname, newEmail),
		OldNotice: dispatch.Mail(kudos.MailRequest{Key: auth.NewKey(), Purpose: kudos.MailEmailChanged, To: u.Email,
			Language: lang, Name: u.Firstname}),
		Taken: dispatch.Mail(kudos.MailRequest{Key: key, Purpose: kudos.MailSignupExisting}),
	}
}
