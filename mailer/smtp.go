package mailer

import (
	"context"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"kudos"
	"kudos/tracing"
)

// sendTimeout bounds each SMTP conversation when the caller's context has no
// earlier deadline, so that a stalled server fails the attempt and the
// e-mail workflow retries instead of hanging.
const sendTimeout = 30 * time.Second

// SMTPSender delivers messages to one SMTP server. It opens a connection per
// Send: mails are rare and each delivery is its own retried activity, so a
// pool would only add stale-connection failures.
type SMTPSender struct {
	host string
	opts []gomail.Option
	from string
}

var _ kudos.MailSender = (*SMTPSender)(nil)

// NewSMTPSender parses smtpURL and returns a sender that uses from as the
// From header. smtp://[user:pass@]host[:port] speaks plain SMTP upgraded with
// STARTTLS when the server offers it (port 587 by default); smtps:// uses
// implicit TLS (port 465 by default). Credentials, when present, are sent
// with the strongest mechanism the server offers.
func NewSMTPSender(smtpURL, from string) (*SMTPSender, error) {
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("mail: parse SMTP URL: %w", err)
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: invalid from address %q: %w", from, err)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("mail: SMTP URL %q has no host", u.Redacted())
	}
	opts := []gomail.Option{gomail.WithTimeout(sendTimeout)}
	var defaultPort int
	switch u.Scheme {
	case "smtp":
		defaultPort = 587
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case "smtps":
		defaultPort = 465
		opts = append(opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("mail: SMTP URL scheme %q is not smtp or smtps", u.Scheme)
	}
	port := defaultPort
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("mail: SMTP URL %q has an invalid port", u.Redacted())
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil && u.User.Username() != "" {
		password, _ := u.User.Password()
		opts = append(opts,
			gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()),
			gomail.WithPassword(password),
		)
	}
	return &SMTPSender{host: host, opts: opts, from: from}, nil
}

// RequireTLS makes plain smtp:// refuse to send unless the server upgrades
// the connection with STARTTLS: opportunistic STARTTLS can be stripped by
// anyone on the path, and mails carry reset links. Production sets it
// (config.SMTPRequireTLS).
func (s *SMTPSender) RequireTLS() {
	s.opts = append(s.opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
}

// Send delivers msg as a multipart/alternative mail (text and HTML). The
// Message-ID is msg.ID, so a retry after a lost acknowledgement reaches the
// receiver with the same ID and can be recognised as a duplicate.
func (s *SMTPSender) Send(ctx context.Context, msg kudos.Message) error {
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	if err := m.To(msg.To); err != nil {
		return kudos.Errorf(kudos.EInvalid, "mail: invalid recipient %q", msg.To)
	}
	m.Subject(msg.Subject)
	if msg.Purpose != "" {
		m.SetGenHeader(kudos.HeaderMailPurpose, string(msg.Purpose))
	}
	if msg.ID != "" {
		m.SetGenHeader(gomail.HeaderMessageID, msg.ID)
	}
	m.SetDate()
	m.SetBodyString(gomail.TypeTextPlain, msg.Text)
	if msg.HTML != "" {
		m.AddAlternativeString(gomail.TypeTextHTML, msg.HTML)
	}

	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: SMTP client: %w", err)
	}
	ctx, span := sendSpan(ctx, s.host, msg.Purpose)
	defer span.End()
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	if err := client.DialAndSendWithContext(ctx, m); err != nil {
		// The error may quote the server's answer about the recipient.
		span.SetStatus(codes.Error, "send failed")
		return fmt.Errorf("mail: send via %s: %w", client.ServerAddr(), err)
	}
	return nil
}

// sendSpan starts the span of one SMTP send in the caller's trace (the
// mail workflow's activity): the server and the mail's purpose, never the
// recipient, the subject or the body (which hold addresses and links with
// tokens).
func sendSpan(ctx context.Context, host string, purpose kudos.MailPurpose) (context.Context, trace.Span) {
	return tracing.Tracer().Start(ctx, "smtp send", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("server.address", host), attribute.String("kudos.mail.purpose", string(purpose))))
}
