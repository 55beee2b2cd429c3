package stripepay

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestHTTPClientReusesConnections: rounds of concurrent requests to Stripe
// reuse the connections the first round opened (Go's default transport keeps
// two per host, so each later round would open most of them again).
func TestHTTPClientReusesConnections(t *testing.T) {
	const concurrent, rounds = 16, 3
	var opened atomic.Int32
	var arrived sync.WaitGroup
	var release atomic.Pointer[chan struct{}]
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		<-*release.Load() // every request of a round is in flight at once
		w.Write([]byte(`{}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	hc := newHTTPClient()
	for range rounds {
		arrived.Add(concurrent)
		ch := make(chan struct{})
		release.Store(&ch)
		var done sync.WaitGroup
		for range concurrent {
			done.Go(func() {
				resp, err := hc.Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body) // as stripe-go does
				resp.Body.Close()
			})
		}
		arrived.Wait()
		close(ch)
		done.Wait()
	}
	if n := opened.Load(); n != concurrent {
		t.Fatalf("%d connections opened for %d rounds of %d concurrent requests, want %d", n, rounds, concurrent, concurrent)
	}
}
