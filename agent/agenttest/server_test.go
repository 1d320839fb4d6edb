package agenttest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-dev/e2e/agent/agenttest"
)

// recordingT captures the failures the server reports.
type recordingT struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func post(t *testing.T, url string) *http.Response {
	t.Helper()
	res, err := http.Post(url+"/chat/completions", "application/json", bytes.NewBufferString(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func TestRunningOutOfScriptFailsTheTest(t *testing.T) {
	rt := &recordingT{TB: t}
	srv := agenttest.New(rt, agenttest.Text("one"))
	if res := post(t, srv.URL()); res.StatusCode != 200 {
		t.Fatalf("first request: %d", res.StatusCode)
	}
	if res := post(t, srv.URL()); res.StatusCode != 400 {
		t.Errorf("request past the script: %d, want 400 (not retried by clients)", res.StatusCode)
	}
	if len(rt.errs) != 1 || !strings.Contains(rt.errs[0], "request 2 arrived but the script has only 1 steps") {
		t.Errorf("reported %q", rt.errs)
	}
	if srv.Count() != 2 || srv.Requests()[1].Messages[0].Content != "hi" {
		t.Errorf("requests %+v", srv.Requests())
	}
}

func TestUnplayedStepsFailTheTest(t *testing.T) {
	rt := &recordingT{TB: t}
	t.Run("inner", func(t *testing.T) {
		rt.TB = t
		agenttest.New(rt, agenttest.Text("never asked"))
	})
	if len(rt.errs) != 1 || !strings.Contains(rt.errs[0], "1 of 1 scripted steps never requested") {
		t.Errorf("reported %q", rt.errs)
	}
}
