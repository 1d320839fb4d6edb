package redact

import (
	"strings"
	"testing"
)

func TestMaskURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://e2e:hunter2@db/e2e":                          "postgres://e2e:xxxxx@db/e2e",
		`postgres://e2e:se"c\ret w@127.0.0.1:1/e2e?x=1`:          "postgres://e2e:xxxxx@127.0.0.1:1/e2e?x=1",
		"postgres://e2e:p@ss@db/e2e":                             "postgres://e2e:xxxxx@db/e2e",
		"postgres://e2e@db/e2e?sslmode=require&password=s3 cr3t": "postgres://e2e@db/e2e?sslmode=require&password=xxxxx",
		"postgres://e2e@db/e2e":                                  "postgres://e2e@db/e2e",
		"postgres://e2e:pa?ss@db/e2e":                            "postgres://e2e:xxxxx@db/e2e",
		".e2e/e2e.db":                                            ".e2e/e2e.db",
	} {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(MaskURL(in), "hunter2") {
			t.Errorf("%q keeps the password", in)
		}
	}
}

// TestDatabaseForms: every form the PostgreSQL driver reads is a
// connection string (the scheme in any case, libpq's keyword/value
// strings), a path that only looks like one is told apart from both, and
// no form's password survives MaskDatabase.
func TestDatabaseForms(t *testing.T) {
	for _, s := range []string{
		"postgres://e2e:hunter2@db/e2e",
		"Postgres://e2e:hunter2@db/e2e",
		"POSTGRESQL://e2e@db/e2e?password=hunter2",
		"host=db password=hunter2",
		"host=/run/postgresql dbname=e2e",
		"  user = e2e   password = 'hunter2 with spaces' host=db ",
		"dbname=e2e sslmode=disable",
		`password=hun\ ter2 host=db`,
	} {
		if !IsDatabaseURL(s) {
			t.Errorf("IsDatabaseURL(%q) = false, want a connection string", s)
		}
		if why, ok := LooksLikeDatabaseURL(s); ok {
			t.Errorf("LooksLikeDatabaseURL(%q) = %q, want false for a form the driver reads", s, why)
		}
	}
	for _, s := range []string{".e2e/e2e.db", "/var/lib/e2e/e2e.db", "e2e.db", "./host=db.db", "data/user=me/e2e.db", "C:\\e2e\\e2e.db", "my file.db"} {
		if IsDatabaseURL(s) {
			t.Errorf("IsDatabaseURL(%q) = true, want a file path", s)
		}
		if why, ok := LooksLikeDatabaseURL(s); ok {
			t.Errorf("LooksLikeDatabaseURL(%q) = %q, want a plain path", s, why)
		}
	}
	for _, s := range []string{
		"mysql://e2e:hunter2@db/e2e",
		"Postgres:/e2e:hunter2@db/e2e",
		"postgres:e2e:hunter2@db",
		"Host=db Password=hunter2",
		"host=db password='hunter2", // an unterminated quote: pgx refuses it
		"e2e.db password=hunter2",
	} {
		if IsDatabaseURL(s) {
			t.Errorf("IsDatabaseURL(%q) = true", s)
		}
		why, ok := LooksLikeDatabaseURL(s)
		if !ok || strings.Contains(why, "hunter2") {
			t.Errorf("LooksLikeDatabaseURL(%q) = %q, %v; want true, with no password", s, why, ok)
		}
	}
	for in, want := range map[string]string{
		"host=db password=hunter2":                          "host=db password=xxxxx",
		"host=db password = 'hunter2 x' user=e2e":           "host=db password = 'xxxxx' user=e2e",
		`host=db password=hunter2\ x sslpassword=hunter2`:   "host=db password=xxxxx sslpassword=xxxxx",
		"Host=db Password=hunter2":                          "Host=db Password=xxxxx",
		"host=db password='hunter2 x":                       "host=db password='xxxxx",
		"Postgres://e2e:hunter2@db/e2e":                     "Postgres://e2e:xxxxx@db/e2e",
		"postgres://e2e@db/e2e?sslpassword=hunter2":         "postgres://e2e@db/e2e?sslpassword=xxxxx",
		"host=a passfile=/x dbname=a":                       "host=a passfile=/x dbname=a",
		"mysql://e2e:hunter2@db/e2e":                        "mysql://e2e:xxxxx@db/e2e",
		`host=db password='hun\'ter2' application_name=e2e`: `host=db password='xxxxx' application_name=e2e`,
	} {
		if got := MaskDatabase(in); got != want || strings.Contains(got, "hunter2") || strings.Contains(got, "ter2") {
			t.Errorf("MaskDatabase(%q) = %q, want %q", in, got, want)
		}
	}
	if got := KeyValuePasswords(`password='hun\'ter2'`); len(got) != 2 || got[1] != "hun'ter2" {
		t.Errorf("KeyValuePasswords = %q, want the value as written and as the driver reads it", got)
	}
	if got := NormalURL("PostgreSQL://E2E@db/E2E"); got != "postgresql://E2E@db/E2E" {
		t.Errorf("NormalURL = %q", got)
	}
}
