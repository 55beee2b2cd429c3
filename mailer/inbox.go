package mailer

import (
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
)

// maxInboxMessages bounds the capture inbox's memory; the oldest mails go first.
const maxInboxMessages = 1000

// errRefusing is what the inbox answers while it plays a broken server: a
// temporary failure, so that a real client would queue and retry.
var errRefusing = &smtp.SMTPError{
	Code:         451,
	EnhancedCode: smtp.EnhancedCode{4, 3, 0},
	Message:      "Mail service temporarily unavailable, try again later",
}

// InboxMessage is one mail captured by the Inbox, as GET /dev/mailbox shows it.
type InboxMessage struct {
	To      string `json:"to"`
	Subject string `json:"subject"`
	// Purpose is the mail's kudos.HeaderMailPurpose (ARCHITECTURE §4).
	Purpose    string    `json:"purpose"`
	Text       string    `json:"text"`
	HTML       string    `json:"html"`
	ReceivedAt time.Time `json:"received_at"`
	// MessageID is kept to recognise a resent mail, not shown.
	MessageID string `json:"-"`
}

// Inbox is the development capture inbox: an SMTP server on loopback that
// accepts every mail without authentication and keeps it in memory, so the
// product sends mail exactly as in production yet nothing leaves the machine.
type Inbox struct {
	refusing atomic.Bool

	mu       sync.Mutex
	server   *smtp.Server
	listener net.Listener
	served   chan struct{}
	messages []InboxMessage // oldest first
}

// NewInbox returns an inbox that is not listening yet; see Start.
func NewInbox() *Inbox {
	return &Inbox{}
}

// Start listens on addr (such as "127.0.0.1:1025", or port 0 for any free
// port) and serves in the background. It returns once the port is bound, so
// a sender may connect right away, and fails if the port is taken.
func (i *Inbox) Start(addr string) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.server != nil {
		return errors.New("mail: inbox already started")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &inboxSession{inbox: i}, nil
	}))
	s.Domain = "localhost"
	s.ReadTimeout = time.Minute
	s.WriteTimeout = time.Minute
	s.MaxMessageBytes = 10 << 20
	s.MaxRecipients = 100
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = s.Serve(ln) // returns nil after Close; accept errors end serving
	}()
	i.server, i.listener, i.served = s, ln, served
	return nil
}

// Addr returns the address the inbox listens on ("127.0.0.1:40123"), or ""
// before Start.
func (i *Inbox) Addr() string {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.listener == nil {
		return ""
	}
	return i.listener.Addr().String()
}

// Close stops the server and drops open connections. The captured messages
// stay readable. Closing an inbox that never started, or twice, is a no-op.
func (i *Inbox) Close() error {
	i.mu.Lock()
	s, ln, served := i.server, i.listener, i.served
	i.mu.Unlock()
	if s == nil {
		return nil
	}
	err := s.Close()
	// Close the listener too: the server only knows it once its Serve
	// goroutine has run, which an immediate Close may precede.
	if lerr := ln.Close(); err == nil {
		err = lerr
	}
	<-served
	if errors.Is(err, smtp.ErrServerClosed) || errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// SetRefusing makes the inbox answer every RCPT and DATA with a temporary
// 451 error while refuse is true, so fault tests can simulate SMTP being down.
func (i *Inbox) SetRefusing(refuse bool) {
	i.refusing.Store(refuse)
}

// Messages returns the captured mails, newest first. A non-empty to keeps
// only the mails for that recipient, compared case-insensitively as people
// type addresses in any case.
func (i *Inbox) Messages(to string) []InboxMessage {
	to = strings.TrimSpace(to)
	i.mu.Lock()
	defer i.mu.Unlock()
	out := []InboxMessage{}
	for k := len(i.messages) - 1; k >= 0; k-- {
		if to == "" || strings.EqualFold(i.messages[k].To, to) {
			out = append(out, i.messages[k])
		}
	}
	return out
}

// store keeps msg unless a mail with the same Message-ID already reached the
// same recipient: the product promises one mail per request, and a retried
// delivery must not show up twice.
func (i *Inbox) store(msg InboxMessage) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if msg.MessageID != "" {
		for _, m := range i.messages {
			if m.MessageID == msg.MessageID && strings.EqualFold(m.To, msg.To) {
				return
			}
		}
	}
	i.messages = append(i.messages, msg)
	if n := len(i.messages) - maxInboxMessages; n > 0 {
		i.messages = append(i.messages[:0:0], i.messages[n:]...)
	}
}

// inboxSession is one SMTP transaction's state: the envelope recipients.
type inboxSession struct {
	inbox *Inbox
	rcpts []string
}

// Mail accepts any sender.
func (s *inboxSession) Mail(string, *smtp.MailOptions) error { return nil }

// Rcpt records the recipient, or refuses while the inbox plays down.
func (s *inboxSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.inbox.refusing.Load() {
		return errRefusing
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

// Data parses the mail and stores one copy per envelope recipient, which is
// what each recipient's real mailbox would receive.
func (s *inboxSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if s.inbox.refusing.Load() {
		return errRefusing
	}
	p, err := parseMessage(raw)
	if err != nil {
		return &smtp.SMTPError{
			Code:         554,
			EnhancedCode: smtp.EnhancedCode{5, 6, 0},
			Message:      "Malformed message: " + err.Error(),
		}
	}
	now := time.Now().UTC()
	for _, to := range s.rcpts {
		s.inbox.store(InboxMessage{
			To:         to,
			Subject:    p.subject,
			Purpose:    p.purpose,
			Text:       p.text,
			HTML:       p.html,
			ReceivedAt: now,
			MessageID:  p.messageID,
		})
	}
	return nil
}

// Reset forgets the recipients between transactions on one connection.
func (s *inboxSession) Reset() { s.rcpts = nil }

// Logout has nothing to release.
func (s *inboxSession) Logout() error { return nil }
