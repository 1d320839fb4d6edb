package agent

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/option"

	"github.com/e2e-dev/e2e/session/redact"
)

// redactRequests is the client's last word on what reaches the model: every
// request body is read, every string value in it redacted with r (keeping
// the JSON valid; see redact.Redactor.JSON) and sent on. Whatever a caller
// forgot to redact (a snapshot, a tool result, an error quoting a URL) does
// not leave.
func redactRequests(r *redact.Redactor) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		if req.Body == nil || req.Body == http.NoBody || r.Len() == 0 {
			return next(req)
		}
		body, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("read the request body: %w", err)
		}
		body = r.JSON(body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		return next(req)
	}
}
