package auth

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	now := time.Unix(1000, 0)
	l := NewLimiter(3, time.Minute)
	l.Now = func() time.Time { return now }
	for i := range 3 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("request %d refused within the burst", i)
		}
	}
	ok, wait := l.Allow("a")
	if ok || wait <= 0 || wait > 20*time.Second {
		t.Fatalf("4th request: ok=%v wait=%v; want refused, about 20 s", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key is limited by a's bucket")
	}
	now = now.Add(20 * time.Second)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("a token did not come back after Per/Burst")
	}
	// A fully exhausted key is usable again after Per at most: no long lockout.
	for range 10 {
		l.Allow("a")
	}
	now = now.Add(time.Minute)
	for i := range 3 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("after a full period, request %d refused", i)
		}
	}
}
