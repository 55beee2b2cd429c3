package api

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"kudos"
	"kudos/auth"
	"kudos/dispatch"
)

// userUpdateRequest holds the fields of PATCH …/user; absent ones stay.
type userUpdateRequest struct {
	Firstname          *string `json:"firstname"`
	Lastname           *string `json:"lastname"`
	Email              *string `json:"email"`
	Password           *string `json:"password"`
	OptInNotifications *bool   `json:"opt_in_notifications"`
	OptInMarketing     *bool   `json:"opt_in_marketing"`
	PreferredLanguage  *string `json:"preferred_language"`
}

// updateUser changes the caller's personal details. A new e-mail must be
// confirmed by mail (the user is unactivated until then, the old address is
// told); a new password ends the user's other sessions.
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
	if req.Email != nil && *req.Email != u.Email && u.SocialLogin {
		return kudos.Errorf(kudos.EForbidden, "the e-mail of a Google sign-in cannot be changed here")
	}
	if upd != (kudos.UserUpdate{}) {
		if err := s.DB.UpdateUser(ctx(c), u.ID, upd); err != nil {
			return err
		}
	}
	if req.Password != nil {
		hash, err := s.Hasher.Hash(ctx(c), *req.Password)
		if err != nil {
			return err
		}
		if err := s.DB.ChangePassword(ctx(c), u.ID, sess.ID, hash); err != nil {
			return err
		}
	}
	if req.Email != nil && *req.Email != u.Email {
		if err := s.changeEmail(c, u, *req.Email); err != nil {
			return err
		}
	}
	return c.JSON(fiber.Map{})
}

// changeEmail mails a confirmation link to the new address and a notice to
// the old one.
func (s *Server) changeEmail(c fiber.Ctx, u *kudos.User, newEmail string) error {
	lang := u.PreferredLanguage
	token := s.activationToken(auth.NewKey(), newEmail, lang, u.Firstname, newEmail)
	notice := dispatch.Mail(kudos.MailRequest{Key: auth.NewKey(), Purpose: kudos.MailEmailChanged, To: u.Email,
		Language: lang, Name: u.Firstname})
	err := s.DB.RequestEmailChange(ctx(c), u.ID, token, notice)
	if kudos.ErrorCode(err) == kudos.EConflict {
		return kudos.FieldErrors{"email": kudos.FEmailTaken}.Err()
	}
	if err == nil {
		s.Outbox.Kick()
	}
	return err
}
