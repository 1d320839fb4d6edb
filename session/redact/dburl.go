package redact

import "strings"

// URLPasswords returns the passwords a database URL carries as written: the
// one of its user information (postgres://user:PASSWORD@host/db) and the
// values of password= query parameters. It reads the URL as text rather
// than with net/url, so that a password with characters a URL must escape
// (a quote, a backslash, a space, an @) is still found: net/url refuses
// such a URL, and then nothing would be masked.
func URLPasswords(u string) []string {
	var out []string
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return nil
	}
	// The user information ends at the last @ before the query (a raw ? in
	// the password: the last @ of all).
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		q = len(rest)
	}
	at := strings.LastIndexByte(rest[:q], '@')
	if at < 0 {
		at = strings.LastIndexByte(rest, '@')
	}
	if at >= 0 {
		if _, pw, ok := strings.Cut(rest[:at], ":"); ok && pw != "" {
			out = append(out, pw)
		}
		rest = rest[at+1:]
	}
	if _, query, ok := strings.Cut(rest, "?"); ok {
		for _, kv := range strings.Split(query, "&") {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, "password") && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// MaskURL replaces every password URLPasswords finds in u with "xxxxx".
func MaskURL(u string) string {
	for _, pw := range URLPasswords(u) {
		u = strings.ReplaceAll(u, pw, "xxxxx")
	}
	return u
}
