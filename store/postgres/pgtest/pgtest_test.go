package pgtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// psql runs one statement against c with the server's own psql.
func psql(t *testing.T, c *Cluster, sql string) string {
	t.Helper()
	bin, err := BinDir()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(bin, "psql"), "-X", "-A", "-t", "-d", c.DSN(""), "-c", sql).CombinedOutput()
	if err != nil {
		t.Fatalf("psql %q: %v\n%s", sql, err, out)
	}
	return strings.TrimSpace(string(out))
}

// clusterTest skips t under -short and runs it beside the others: each
// test has clusters of its own, and mostly waits on initdb and the server.
func clusterTest(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL (-short)")
	}
	t.Parallel()
}

func TestStartServesOnASocketAndStopRemovesIt(t *testing.T) {
	clusterTest(t)
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if got := psql(t, c, "select 6*7"); got != "42" {
		t.Fatalf("select 6*7 = %q", got)
	}
	if got := psql(t, c, "show listen_addresses"); got != "" {
		t.Errorf("listen_addresses = %q, want none (socket only)", got)
	}
	if got := psql(t, c, "select current_setting('is_superuser')"); got != "on" {
		t.Errorf("is_superuser = %q", got)
	}
	pid := c.cmd.Process.Pid
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory %s still there after Stop (%v)", c.Dir, err)
	}
	if alive(pid) {
		t.Errorf("postgres %d still running after Stop", pid)
	}
}

func TestStartReapsAClusterWhoseTestDied(t *testing.T) {
	clusterTest(t)
	stale, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// Make it look like a cluster of a test binary that was killed: its owner
	// is a process that has exited, and nobody will call Stop.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale.Dir, ownerFile), []byte(strconv.Itoa(gone.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	pid := stale.cmd.Process.Pid
	fresh := Start(t)
	if _, err := os.Stat(stale.Dir); !os.IsNotExist(err) {
		t.Errorf("stale cluster %s not removed (%v)", stale.Dir, err)
	}
	<-stale.done // the reaper stopped it; its Wait returns
	if alive(pid) {
		t.Errorf("stale postgres %d still running", pid)
	}
	if got := psql(t, fresh, "select 1"); got != "1" {
		t.Fatalf("fresh cluster: %q", got)
	}
}

func TestTwoClustersAtOnce(t *testing.T) {
	clusterTest(t)
	a, b := Start(t), Start(t)
	if a.Dir == b.Dir {
		t.Fatal("same directory")
	}
	psql(t, a, "create table only_in_a (x int)")
	if got := psql(t, b, "select count(*) from pg_tables where tablename = 'only_in_a'"); got != "0" {
		t.Errorf("b sees a's table: %q", got)
	}
}
