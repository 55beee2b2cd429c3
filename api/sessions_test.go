package api_test

import (
	"testing"
	"time"
)

// TestSignedInDevices: a user lists their sessions, ends one, then all but
// the current one; nobody else's session can be named.
func TestSignedInDevices(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, account := h.signedUpUser("devices@example.com")
	creds := map[string]any{"email": "devices@example.com", "password": "Secret1!"}
	phone := h.expect(h.do("POST", "/v1/auth/signin", creds, "", "User-Agent", "KudosPhone/1.0"), 201).str("token")
	laptop := h.expect(h.do("POST", "/v1/auth/signin", creds, "", "User-Agent", "KudosLaptop/2.0"), 201).str("token")
	path := "/v1/accounts/" + account + "/sessions"

	list := h.expect(h.do("GET", path, nil, token), 200).Body["sessions"].([]any)
	if len(list) != 3 {
		t.Fatalf("%d sessions, want 3: %v", len(list), list)
	}
	var phoneID string
	current := 0
	for _, x := range list {
		s := x.(map[string]any)
		if s["user_agent"] == "KudosPhone/1.0" {
			phoneID = s["id"].(string)
		}
		if s["current"] == true {
			current++
		}
	}
	if phoneID == "" || current != 1 {
		t.Fatalf("sessions %v", list)
	}
	h.expect(h.do("DELETE", path+"/"+phoneID, nil, token), 204)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, phone), 401)
	h.expect(h.do("DELETE", path+"/"+phoneID, nil, token), 404)

	// Someone else's session is not found, and stays alive.
	otherToken, otherAccount := h.signedUpUser("stranger@example.com")
	otherList := h.expect(h.do("GET", "/v1/accounts/"+otherAccount+"/sessions", nil, otherToken), 200).Body["sessions"].([]any)
	otherID := otherList[0].(map[string]any)["id"].(string)
	h.expect(h.do("DELETE", path+"/"+otherID, nil, token), 404)
	h.expect(h.do("GET", "/v1/accounts/"+otherAccount, nil, otherToken), 200)
	h.expect(h.do("GET", path, nil, otherToken), 404) // not a member

	// Ending all others keeps this one.
	h.expect(h.do("DELETE", path, nil, token), 204)
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, laptop), 401)
	if list := h.expect(h.do("GET", path, nil, token), 200).Body["sessions"].([]any); len(list) != 1 {
		t.Fatalf("%d sessions left, want 1", len(list))
	}
}

// TestSessionIdleTimeout: a session unused for longer than the idle timeout
// ends, however long its lifetime; one in use stays.
func TestSessionIdleTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.db.SessionIdle = 12 * time.Hour
	token, account := h.signedUpUser("idle@example.com")
	idle := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "idle@example.com", "password": "Secret1!"}, ""), 201).str("token")
	start := time.Now()
	for _, hours := range []int{11, 22, 33} { // used every 11 hours
		h.db.SetClock(func() time.Time { return start.Add(time.Duration(hours) * time.Hour) })
		h.expect(h.do("GET", "/v1/accounts/"+account, nil, token), 200)
		h.expect(h.do("GET", "/v1/accounts/"+account+"/sessions", nil, token), 200)
	}
	h.expect(h.do("GET", "/v1/accounts/"+account, nil, idle), 401)
	h.expect(h.do("PATCH", "/v1/accounts/"+account, map[string]any{"name": "Idle Inc"}, idle), 401)
}

// TestSignedInDevicesNameTheBrowserAndNetwork (issue 37): each session names
// its browser and system from the User-Agent ("Chrome" on "macOS", "Safari"
// on "iPhone"), and the network it signed in from (the client's /24, or /48
// for IPv6: enough to recognise, not the address itself); an unknown agent
// names nothing and keeps its raw text.
func TestSignedInDevicesNameTheBrowserAndNetwork(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	token, account := h.signedUpUser("named-devices@example.com")
	creds := map[string]any{"email": "named-devices@example.com", "password": "Secret1!"}
	const (
		mac    = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
		iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
		win    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
	)
	h.expect(h.do("POST", "/v1/auth/signin", creds, "", "User-Agent", mac, "X-Forwarded-For", "203.0.113.45"), 201)
	h.expect(h.do("POST", "/v1/auth/signin", creds, "", "User-Agent", iphone, "X-Forwarded-For", "2001:db8:abcd:12::1"), 201)
	h.expect(h.do("POST", "/v1/auth/signin", creds, "", "User-Agent", win, "X-Forwarded-For", "198.51.100.7"), 201)
	h.expect(h.do("POST", "/v1/auth/signin", creds, "", "User-Agent", "KudosBot/1.0"), 201)

	want := map[string][3]string{
		mac:            {"Chrome", "macOS", "203.0.113.0/24"},
		iphone:         {"Safari", "iPhone", "2001:db8:abcd::/48"},
		win:            {"Firefox", "Windows", "198.51.100.0/24"},
		"KudosBot/1.0": {"", "", "0.0.0.0/24"},
	}
	seen := 0
	for _, x := range h.expect(h.do("GET", "/v1/accounts/"+account+"/sessions", nil, token), 200).Body["sessions"].([]any) {
		s := x.(map[string]any)
		w, ok := want[s["user_agent"].(string)]
		if !ok {
			continue
		}
		seen++
		str := func(k string) string { v, _ := s[k].(string); return v }
		if got := [3]string{str("browser"), str("system"), str("network")}; got != w {
			t.Errorf("%s: %v, want %v", s["user_agent"], got, w)
		}
	}
	if seen != len(want) {
		t.Fatalf("%d of %d sessions seen", seen, len(want))
	}
}
