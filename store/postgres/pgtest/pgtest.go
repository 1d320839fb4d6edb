// Package pgtest starts throwaway PostgreSQL clusters for tests: initdb into
// a fresh directory, a postgres server on a unix socket in that directory
// (no TCP port), and, when the test ends, the server stopped and the
// directory removed, whether the test passed, failed or panicked.
//
// The server runs as an unprivileged user: the test's own user, or, when the
// tests run as root (initdb refuses root), the "postgres" system user that
// Debian's package creates, or "nobody". A cluster left behind by a test
// binary that was killed (a -timeout panic, a SIGKILL) is found and removed by
// the next Start, which looks for clusters whose owner process is gone.
//
// It imports no database driver: callers connect with the DSN it returns.
package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// prefix names the cluster directories under os.TempDir, so that stale ones
// can be found.
const prefix = "e2e-pg-"

// ownerFile holds the PID of the test process that made a cluster.
const ownerFile = "owner.pid"

// Cluster is a running throwaway server.
type Cluster struct {
	Dir    string // the cluster's directory: data/ and the socket
	Socket string // the directory holding the unix socket
	Port   int    // the port number in the socket's name
	User   string // the superuser, trusted on the socket
	// Host is where clients connect: the socket's directory, or 127.0.0.1
	// when the cluster also listens on a loopback port (E2E_PG_TCP=1).
	Host string

	cmd  *exec.Cmd
	done chan error
}

// DSN returns a libpq keyword/value connection string for database db (the
// default "postgres" database when db is empty), as the superuser.
func (c *Cluster) DSN(db string) string {
	if db == "" {
		db = "postgres"
	}
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", c.host(), c.Port, c.User, db)
}

// URL returns the same connection as a postgres:// URL.
func (c *Cluster) URL(db string) string {
	if db == "" {
		db = "postgres"
	}
	return fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d&sslmode=disable", c.User, db, c.host(), c.Port)
}

func (c *Cluster) host() string {
	if c.Host != "" {
		return c.Host
	}
	return c.Socket
}

// BinDir finds the directory of initdb, postgres and pg_isready: $E2E_PG_BIN,
// the directory of initdb on the PATH, or the newest of Debian's
// /usr/lib/postgresql/*/bin.
func BinDir() (string, error) {
	ok := func(d string) bool {
		for _, b := range []string{"initdb", "postgres", "pg_isready"} {
			if fi, err := os.Stat(filepath.Join(d, b)); err != nil || fi.IsDir() {
				return false
			}
		}
		return true
	}
	if d := os.Getenv("E2E_PG_BIN"); d != "" {
		if ok(d) {
			return d, nil
		}
		return "", fmt.Errorf("E2E_PG_BIN=%s has no initdb, postgres and pg_isready", d)
	}
	if p, err := exec.LookPath("initdb"); err == nil && ok(filepath.Dir(p)) {
		return filepath.Dir(p), nil
	}
	ds, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(ds, func(i, j int) bool { return version(ds[i]) > version(ds[j]) })
	for _, d := range ds {
		if ok(d) {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server found (initdb, postgres): run scripts/ensure-postgres, or set E2E_PG_BIN")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start makes and starts a cluster for t, and registers its removal with
// t.Cleanup. Without a PostgreSQL server installed the test fails (it does
// not skip: make test installs one), except under -short, which skips it.
func Start(t testing.TB) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL (-short)")
	}
	c, err := New()
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return c
}

// New makes and starts a cluster; the caller must Stop it. It is for a
// TestMain that shares one cluster among a package's tests.
func New() (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	reapStale()
	cred, name, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, Socket: dir, Port: 5432, User: "postgres", done: make(chan error, 1)}
	listen := ""
	if os.Getenv("E2E_PG_TCP") != "" {
		// A free loopback port as well as the socket, for measuring what a
		// client over TCP sees.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		c.Port = l.Addr().(*net.TCPAddr).Port
		l.Close()
		c.Host, listen = "127.0.0.1", "127.0.0.1"
	}
	fail := func(err error) (*Cluster, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return fail(err)
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("give %s to %s: %w", dir, name, err))
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", c.User, "--auth=trust",
		"--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	initdb.Dir = dir
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	var log bytes.Buffer
	c.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-k", dir, "-p", strconv.Itoa(c.Port),
		"-c", "listen_addresses="+listen, "-c", "fsync=off", "-c", "full_page_writes=off",
		"-c", "synchronous_commit=off", "-c", "max_connections=200", "-c", "shared_buffers=64MB")
	c.cmd.Dir = dir
	c.cmd.Stdout = &log
	c.cmd.Stderr = &log
	// Its own process group, so a ^C to the test does not reach it before
	// Stop does; Pdeathsig is not used: it follows the starting OS thread.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	if err := c.cmd.Start(); err != nil {
		return fail(fmt.Errorf("start postgres: %w", err))
	}
	go func() { c.done <- c.cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ready := exec.Command(filepath.Join(bin, "pg_isready"), "-q", "-h", dir, "-p", strconv.Itoa(c.Port), "-U", c.User)
		if ready.Run() == nil {
			return c, nil
		}
		select {
		case err := <-c.done:
			c.done <- err
			return fail(fmt.Errorf("postgres exited before it was ready: %v\n%s", err, log.String()))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.Stop()
			return nil, fmt.Errorf("postgres not ready after 30 s:\n%s", log.String())
		}
	}
}

// Stop shuts the server down (fast shutdown, then SIGKILL after 10 s) and
// removes the cluster's directory.
func (c *Cluster) Stop() error {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGINT) // fast shutdown
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
			<-c.done
		}
		c.cmd = nil
	}
	if err := os.RemoveAll(c.Dir); err != nil {
		return fmt.Errorf("remove cluster %s: %w", c.Dir, err)
	}
	return nil
}

// runAs says which user runs initdb and postgres: nil (this process's own
// user) unless this process is root.
func runAs() (*syscall.Credential, string, error) {
	if os.Geteuid() != 0 {
		return nil, "", nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, name, nil
	}
	return nil, "", errors.New("running as root and no postgres or nobody user to run the server as")
}

// reapStale stops and removes clusters whose owner process is gone.
func reapStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue
		}
		owner, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || alive(owner) {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(d, "data", "postmaster.pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])); err == nil && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGQUIT) // immediate shutdown
				for i := 0; i < 100 && alive(pid); i++ {
					time.Sleep(20 * time.Millisecond)
				}
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		os.RemoveAll(d)
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// CreateDB creates an empty database named name (letters, digits and _)
// with the server's own psql, and returns its URL.
func (c *Cluster) CreateDB(name string) (string, error) {
	for _, r := range name {
		if !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z') {
			return "", fmt.Errorf("database name %q: use a-z, 0-9 and _", name)
		}
	}
	if err := c.Exec("", "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return c.URL(name), nil
}

// Exec runs SQL statements in database db ("" for postgres) as the
// superuser, with the server's own psql, stopping at the first error.
func (c *Cluster) Exec(db, sql string) error {
	bin, err := BinDir()
	if err != nil {
		return err
	}
	out, err := exec.Command(filepath.Join(bin, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", c.DSN(db), "-c", sql).CombinedOutput()
	if err != nil {
		return fmt.Errorf("psql %q: %v\n%s", sql, err, out)
	}
	return nil
}
