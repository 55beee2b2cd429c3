package kudos

import "net/url"

// IsWebURL reports whether s is an absolute http or https URL with a host
// and no credentials: the only kind of link a mail may carry.
func IsWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}
