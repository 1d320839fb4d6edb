package redact

import (
	"slices"
	"strings"
)

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

// A database connection string is read in one of the forms the PostgreSQL
// driver (pgx) accepts: a URL whose scheme is postgres or postgresql, in
// any case, or a libpq keyword/value string (host=db user=e2e
// password='s3 cr3t'). Anything else is a SQLite file path, unless it
// looks like a connection string: then it is refused, since taking it for
// a path puts its password into directory names.

// libpqKeywords are the keywords of libpq's connection strings (and pgx's
// alias database).
var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "database": true, "user": true,
	"password": true, "passfile": true, "require_auth": true, "channel_binding": true,
	"connect_timeout": true, "client_encoding": true, "options": true, "application_name": true,
	"fallback_application_name": true, "keepalives": true, "keepalives_idle": true,
	"keepalives_interval": true, "keepalives_count": true, "tcp_user_timeout": true,
	"replication": true, "gssencmode": true, "sslmode": true, "requiressl": true,
	"sslcompression": true, "sslcert": true, "sslkey": true, "sslpassword": true,
	"sslcertmode": true, "sslrootcert": true, "sslcrl": true, "sslcrldir": true, "sslsni": true,
	"sslnegotiation": true, "requirepeer": true, "ssl_min_protocol_version": true,
	"ssl_max_protocol_version": true, "krbsrvname": true, "gsslib": true, "gssdelegation": true,
	"service": true, "target_session_attrs": true, "load_balance_hosts": true, "min_read_buffer_size": true,
}

// kvSecretKeys are the keywords whose values are secrets.
var kvSecretKeys = map[string]bool{"password": true, "sslpassword": true}

// IsDatabaseURL reports whether s is a PostgreSQL connection string the
// driver reads: a postgres:// or postgresql:// URL (the scheme in any
// case), or a keyword/value string that parses as libpq's and whose
// keywords include at least one of libpq's (host=db dbname=e2e).
func IsDatabaseURL(s string) bool {
	s = strings.TrimSpace(s)
	if _, ok := postgresScheme(s); ok {
		return true
	}
	pairs, ok := keyValuePairs(s)
	if !ok {
		return false
	}
	for _, p := range pairs {
		if libpqKeywords[p.key] {
			return true
		}
	}
	return false
}

// NormalURL returns s with a postgres URL's scheme in lower case (the
// driver reads only postgres:// and postgresql://); any other s as it is.
func NormalURL(s string) string {
	if n, ok := postgresScheme(s); ok {
		return strings.ToLower(s[:n]) + s[n:]
	}
	return s
}

// postgresScheme returns the length of s's postgres:// or postgresql://
// prefix, in any case.
func postgresScheme(s string) (int, bool) {
	for _, p := range []string{"postgres://", "postgresql://"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return len(p), true
		}
	}
	return 0, false
}

// LooksLikeDatabaseURL reports whether s, which IsDatabaseURL does not
// read as a connection string, looks like one all the same — a URL with a
// scheme (mysql://…, postgres:…), or a libpq keyword in any case followed
// by = (Host=db, password=…) — and says what gave it away, in words that
// never quote s's values. Such a string is no SQLite file path to use.
func LooksLikeDatabaseURL(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if IsDatabaseURL(s) {
		return "", false
	}
	if i := strings.Index(s, "://"); i > 0 && dbURLScheme(s[:i]) {
		return "it starts with the URL scheme " + s[:i] + "://", true
	}
	if i := strings.IndexByte(s, ':'); i > 0 {
		if sc := strings.ToLower(s[:i]); sc == "postgres" || sc == "postgresql" {
			return "it starts with " + s[:i] + ": but not " + s[:i] + "://", true
		}
	}
	for _, k := range kvKeywords(s) {
		if libpqKeywords[strings.ToLower(k)] {
			return "it holds the connection keyword " + k + "=", true
		}
	}
	return "", false
}

func dbURLScheme(s string) bool {
	if len(s) < 2 || len(s) > 32 {
		return false
	}
	for i, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case i > 0 && ('0' <= r && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// kvKeywords returns the words of s that stand before an = (spaces
// around it allowed) and start s or follow white space.
func kvKeywords(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && kvSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !kvSpace(s[j]) && s[j] != '=' {
			j++
		}
		k := j
		for k < len(s) && kvSpace(s[k]) {
			k++
		}
		if j > i && k < len(s) && s[k] == '=' {
			out = append(out, s[i:j])
		}
		// on to the next white space
		for j < len(s) && !kvSpace(s[j]) {
			j++
		}
		i = j
	}
	return out
}

func kvSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// kvPair is one keyword=value of a libpq connection string: the value as
// written (without its quotes) and as the driver reads it.
type kvPair struct{ key, raw, val string }

// keyValuePairs reads s as libpq's keyword/value grammar, as pgx does:
// keyword, optional spaces, =, optional spaces, then a value in single
// quotes or up to the next space, backslash escaping the next character.
// It reports false when s does not read so.
func keyValuePairs(s string) ([]kvPair, bool) {
	var out []kvPair
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	for len(s) > 0 {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, false
		}
		key := strings.Trim(s[:eq], " \t\n\r\v\f")
		if key == "" || strings.ContainsAny(key, " \t\n\r\v\f") {
			return nil, false
		}
		raw, rest, ok := kvValue(strings.TrimLeft(s[eq+1:], " \t\n\r\v\f"))
		if !ok {
			return nil, false
		}
		out = append(out, kvPair{key: key, raw: raw, val: unescapeKV(raw)})
		s = strings.TrimLeft(rest, " \t\n\r\v\f")
	}
	return out, len(out) > 0
}

// kvValue splits the value at the start of s off the rest: the text
// between single quotes (false when the closing one is missing), or up to
// the next white space.
func kvValue(s string) (raw, rest string, ok bool) {
	if s == "" {
		return "", "", true
	}
	if s[0] == '\'' {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '\'':
				return s[1:i], s[i+1:], true
			}
		}
		return s[1:], "", false
	}
	i := 0
	for ; i < len(s) && !kvSpace(s[i]); i++ {
		if s[i] == '\\' {
			i++
		}
	}
	i = min(i, len(s))
	return s[:i], s[i:], true
}

func unescapeKV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// KeyValuePasswords returns the secrets a libpq keyword/value string
// carries — the values of password= and sslpassword= (the keyword in any
// case, spaces around = allowed, the value quoted or not) — as written
// and, when escapes change it, as the driver reads them. A string that
// does not parse as a whole (an unterminated quote) still gives up what
// follows each such keyword.
func KeyValuePasswords(s string) []string {
	var out []string
	for _, sp := range kvSecrets(s) {
		raw := s[sp[0]:sp[1]]
		out = append(out, raw)
		if u := unescapeKV(raw); u != raw {
			out = append(out, u)
		}
	}
	return out
}

// kvSecrets returns where the secret values of a keyword/value string
// stand in s (see KeyValuePasswords), as [start, end) byte offsets.
func kvSecrets(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		for i < len(s) && kvSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !kvSpace(s[j]) && s[j] != '=' {
			j++
		}
		k := j
		for k < len(s) && kvSpace(s[k]) {
			k++
		}
		if j == i || k == len(s) || s[k] != '=' {
			for j < len(s) && !kvSpace(s[j]) {
				j++
			}
			i = j
			continue
		}
		v := k + 1
		for v < len(s) && kvSpace(s[v]) {
			v++
		}
		raw, rest, _ := kvValue(s[v:])
		if kvSecretKeys[strings.ToLower(s[i:j])] && raw != "" {
			start := v
			if s[v] == '\'' {
				start++
			}
			out = append(out, [2]int{start, start + len(raw)})
		}
		i = len(s) - len(rest)
	}
	return out
}

// DatabasePasswords returns the secrets of a database connection string in
// any form: URLPasswords for one with a scheme (anything://), and the
// keyword/value secrets (KeyValuePasswords) of the rest.
func DatabasePasswords(s string) []string {
	if strings.Contains(s, "://") {
		pws := URLPasswords(s)
		if _, query, ok := strings.Cut(s, "?"); ok {
			for _, kv := range strings.Split(query, "&") {
				if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, "sslpassword") && v != "" {
					pws = append(pws, v)
				}
			}
		}
		return pws
	}
	return KeyValuePasswords(s)
}

// MaskDatabase replaces every secret DatabasePasswords finds in s with
// "xxxxx": what a message that shows a connection string prints.
func MaskDatabase(s string) string {
	if strings.Contains(s, "://") {
		pws := DatabasePasswords(s)
		// longest first, so that a password holding another is masked whole
		slices.SortFunc(pws, func(a, b string) int { return len(b) - len(a) })
		for _, pw := range pws {
			s = strings.ReplaceAll(s, pw, "xxxxx")
		}
		return s
	}
	spans := kvSecrets(s)
	for i := len(spans) - 1; i >= 0; i-- {
		s = s[:spans[i][0]] + "xxxxx" + s[spans[i][1]:]
	}
	return s
}
