package agenttest

import (
	"encoding/json"
	"net/http"
	"time"
)

// Trickle is step sent one byte every d: a server that answers, and keeps
// the connection busy, but far too slowly. The handler stops when the
// client gives up.
func Trickle(step Step, d time.Duration) Step {
	step.Trickle = d
	return step
}

// answer is the 200 body of step: Raw, or the completion as JSON.
func answer(n int, model string, step Step) []byte {
	if step.Raw != "" {
		return []byte(step.Raw)
	}
	b, err := json.Marshal(completion(n, model, step))
	if err != nil {
		return []byte(`{"error":"agenttest: cannot marshal the answer"}`)
	}
	return b
}

// trickle writes body one byte every d, flushing each, until it is all
// sent or the request is done.
func trickle(w http.ResponseWriter, r *http.Request, body []byte, d time.Duration) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	t := time.NewTicker(d)
	defer t.Stop()
	for i := range body {
		if i > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-t.C:
			}
		}
		if _, err := w.Write(body[i : i+1]); err != nil {
			return
		}
		if f != nil {
			f.Flush()
		}
	}
}
