package api

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// PaymentMethodsTTL is how long GET …/billing shows an account's payment
// methods from the api's memory before asking the provider again.
const PaymentMethodsTTL = time.Minute

// methodsCache keeps, per account and in this process, the payment methods
// the provider listed last, with the stamp of the account's payment and
// billing events at that moment: a checkout paid or a method added or
// removed, here, by the workflow or on another replica, changes the stamp
// and the next read asks the provider again.
type methodsCache struct {
	mu      sync.Mutex
	entries map[uuid.UUID]cachedMethods
}

type cachedMethods struct {
	methods []kudos.PaymentMethod
	stamp   string
	at      time.Time
}

// maxCachedAccounts bounds the cache: beyond it, stale entries are dropped.
const maxCachedAccounts = 10_000

// paymentMethods returns the account's payment methods, from the cache when
// they are younger than PaymentMethodsTTL and nothing changed since.
func (s *Server) paymentMethods(ctx context.Context, accountID uuid.UUID) ([]kudos.PaymentMethod, error) {
	stamp, err := s.DB.PaymentMethodsStamp(ctx, accountID)
	if err != nil {
		return nil, err
	}
	now := s.DB.Now()
	c := s.methods
	c.mu.Lock()
	e, ok := c.entries[accountID]
	c.mu.Unlock()
	if ok && e.stamp == stamp && now.Sub(e.at) < PaymentMethodsTTL && !now.Before(e.at) {
		return e.methods, nil
	}
	methods, err := s.Payments.PaymentMethods(ctx, accountID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedAccounts {
		for id, old := range c.entries {
			if now.Sub(old.at) >= PaymentMethodsTTL || now.Before(old.at) {
				delete(c.entries, id)
			}
		}
	}
	if len(c.entries) < maxCachedAccounts {
		c.entries[accountID] = cachedMethods{methods: methods, stamp: stamp, at: now}
	}
	return methods, nil
}

// forgetPaymentMethods drops the account's cached payment methods (this
// process changed them).
func (s *Server) forgetPaymentMethods(accountID uuid.UUID) {
	s.methods.mu.Lock()
	delete(s.methods.entries, accountID)
	s.methods.mu.Unlock()
}
