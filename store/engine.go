package store

import (
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/store/postgres"
	"github.com/e2e-dev/e2e/store/sqlite"
)

// engine is what differs between the two databases the store runs on. The
// schema is numbered per engine (migrations/ for SQLite,
// migrations/postgres/ for PostgreSQL); every query is the same text, written
// with ? placeholders in the SQL both engines speak, and rebound to $1, $2, …
// for PostgreSQL where a statement leaves the process (wrap.go).
type engine struct {
	name       string // "sqlite" or "postgres"
	migrations string // the folder of migrationFiles holding its schema
	rebind     bool   // ? → $n
	// serializable: write transactions run SERIALIZABLE and are retried
	// when they race (inTx).
	serializable bool

	isBusy       func(error) bool // another writer holds the lock: wait and try again
	isRetry      func(error) bool // the transaction raced another: run it again
	isForeignKey func(error) bool
}

var sqliteEngine = &engine{
	name:         "sqlite",
	migrations:   "migrations",
	isBusy:       sqlite.IsBusy,
	isRetry:      func(error) bool { return false }, // IMMEDIATE transactions do not race
	isForeignKey: sqlite.IsForeignKey,
}

var postgresEngine = &engine{
	name:         "postgres",
	migrations:   "migrations/postgres",
	rebind:       true,
	serializable: true,
	isBusy:       func(error) bool { return false },
	isRetry:      postgres.IsRetry,
	isForeignKey: postgres.IsForeignKey,
}

// isForeignKey reports whether a write broke a foreign key, on either
// engine.
func isForeignKey(err error) bool { return sqlite.IsForeignKey(err) || postgres.IsForeignKey(err) }

// rebind turns the ? placeholders of query into $1, $2, …, leaving quoted
// strings, quoted names and comments alone.
func rebind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(query) {
				if query[j] == c {
					if j+1 < len(query) && query[j+1] == c { // '' inside a string
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteString(query[i:min(j+1, len(query))])
			i = j
		case c == '-' && i+1 < len(query) && query[i+1] == '-':
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				j = len(query) - i
			}
			b.WriteString(query[i : i+j])
			i += j - 1
		case c == '?':
			j := i + 1
			for j < len(query) && '0' <= query[j] && query[j] <= '9' {
				j++
			}
			b.WriteByte('$')
			if j > i+1 { // ?3: SQLite's numbered parameter is PostgreSQL's $3
				b.WriteString(query[i+1 : j])
				i = j - 1
				continue
			}
			n++
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
