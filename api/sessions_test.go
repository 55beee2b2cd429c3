package api_test

import (
	"testing"
	"time"
)

// TestSignedInDevices: a user lists their sessions, ends one, then all but
// the current one; nobody else's session can be named.
func TestSignedInDevices(t *testing.T) {
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
