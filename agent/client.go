package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
)

// Defaults for Config fields left zero.
const (
	DefaultTimeout       = 60 * time.Second
	DefaultMaxRetries    = 2
	DefaultBackoff       = 500 * time.Millisecond
	DefaultMaxBackoff    = 8 * time.Second
	DefaultMaxRetryAfter = 30 * time.Second
)

// Clock tells the time and waits. The client measures latency and sleeps
// between attempts through it, so that tests can see the waits without
// waiting.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, returning ctx.Err() then.
	Sleep(ctx context.Context, d time.Duration) error
}

// Config says which model to ask and how patiently.
type Config struct {
	// BaseURL is the server's API root, ending in /v1:
	// https://api.openai.com/v1, http://localhost:11434/v1 (Ollama),
	// http://localhost:8000/v1 (vLLM), http://localhost:8080/v1 (llama.cpp).
	BaseURL string
	APIKey  string // may be empty for local servers
	Model   string
	// Timeout bounds each request; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is how many times a failed request is sent again (on 429,
	// 5xx, timeouts, unreachable servers and malformed answers); zero means
	// DefaultMaxRetries, negative means none.
	MaxRetries int
	// Backoff is the first wait between attempts, doubled after each and
	// capped at MaxBackoff, with jitter; zero means the defaults. A
	// Retry-After header from the server replaces it, capped at MaxRetryAfter.
	Backoff       time.Duration
	MaxBackoff    time.Duration
	MaxRetryAfter time.Duration
	// Prices turn tokens into cost, by model name. A model not in it costs 0.
	Prices map[string]Price
	// Recorder keeps every call, failed ones included; nil keeps none.
	Recorder session.CallRecorder
	RunID    int64 // recorded with each call; 0 outside a run
	// Clock defaults to the wall clock; Jitter to math/rand (it returns a
	// number in [0, 1)).
	Clock  Clock
	Jitter func() float64
	// HTTPClient defaults to openai-go's.
	HTTPClient *http.Client
	// Redactor, when set, redacts every secret value it knows from every
	// request body before it is sent, and from the recorded calls.
	Redactor *redact.Redactor
	// MaxReplyBytes caps the answer body read, in bytes; zero means
	// DefaultMaxReplyBytes. A longer answer is a failed attempt, retried
	// like a malformed one (see Complete), and is never read whole.
	MaxReplyBytes int64
}

// ConfigFromEnv returns base with BaseURL, APIKey and Model filled from
// OPENAI_BASE_URL, OPENAI_API_KEY and E2E_MODEL where they are empty. Fields
// already set win over the environment.
func ConfigFromEnv(base Config) Config {
	fill := func(f *string, env string) {
		if *f == "" {
			*f = os.Getenv(env)
		}
	}
	fill(&base.BaseURL, "OPENAI_BASE_URL")
	fill(&base.APIKey, "OPENAI_API_KEY")
	fill(&base.Model, "E2E_MODEL")
	return base
}

// Validate reports, as an error matching ErrConfig, what keeps the config
// from reaching a model: a base URL that is missing, not http(s) or does not
// end in /v1, or no model.
func (c Config) Validate() error {
	if c.BaseURL == "" {
		return fmt.Errorf("%w: no base URL (set baseURL in e2e.yaml or OPENAI_BASE_URL, e.g. https://api.openai.com/v1)", ErrConfig)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: base URL %q is not an http(s) URL", ErrConfig, c.BaseURL)
	}
	if !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/v1") {
		hint := strings.TrimRight(c.BaseURL, "/") + "/v1"
		return fmt.Errorf("%w: base URL %q must end in /v1 (e.g. %s)", ErrConfig, c.BaseURL, hint)
	}
	if c.Model == "" {
		return fmt.Errorf("%w: no model (set model in e2e.yaml or E2E_MODEL)", ErrConfig)
	}
	return nil
}

// Client sends chat completion requests with tools to an OpenAI-compatible
// server, retries them by its own policy and records every call. It is safe
// for concurrent use.
type Client struct {
	cfg Config
	oa  openai.Client
}

// New returns a client for cfg, with defaults filled in. It fails with an
// error matching ErrConfig when cfg.Validate does. openai-go's own retries
// are off: the policy is the one documented on Config.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.MaxRetryAfter <= 0 {
		cfg.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if cfg.Clock == nil {
		cfg.Clock = wallClock{}
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.Float64
	}
	if cfg.MaxReplyBytes <= 0 {
		cfg.MaxReplyBytes = DefaultMaxReplyBytes
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
		option.WithMiddleware(limitReplies(cfg.MaxReplyBytes)),
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	if cfg.Redactor != nil {
		opts = append(opts, option.WithMiddleware(redactRequests(cfg.Redactor)))
	}
	return &Client{cfg: cfg, oa: openai.NewClient(opts...)}, nil
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.cfg.Model }

// Request is one question to the model.
type Request struct {
	// Purpose is recorded with the call: "locate", "act", "heal", "assert".
	Purpose  string
	Messages []Message
	Tools    []Tool
	// ToolChoice is "" (the server's default), "auto", "none", "required",
	// or the name of a tool the model must call.
	ToolChoice string
	MaxTokens  int // 0: the server's default
	// Check, when set, validates an answer before the call is recorded. An
	// error from it makes the call's outcome "bad-response"; see Complete.
	Check func(*Response) error
}

// Response is the model's answer to one request.
type Response struct {
	Content      string
	ToolCalls    []ToolCall
	FinishReason string
	Model        string
	Usage        Usage // as the server reported it
	// Counted is the client's own estimate of the tokens sent and
	// received, whatever the server reported; see Tokens.
	Counted  Usage
	Attempts int
	Latency  time.Duration // from the first attempt to the answer, waits included
	Cost     float64       // USD, from Config.Prices; 0 when the model has no price
}

// Complete sends req and returns the first well-formed answer.
//
// A request that fails with 429, 5xx (or 408/409), a per-request timeout, a
// transport error or an unparseable answer is sent again, up to
// MaxRetries times, waiting by exponential backoff with jitter or by the
// server's Retry-After. So is an answer longer than Config.MaxReplyBytes,
// which is cut off unread. Other 4xx answers are not retried. When the budget
// is spent the error is one *CallError matching ErrRateLimited, ErrTimeout,
// ErrServer, ErrUnreachable, ErrBadResponse or ErrRejected. A done ctx ends
// the call with an error wrapping ctx.Err().
//
// When req.Check rejects an answer, Complete returns that answer together
// with a *CallError matching ErrBadResponse whose Detail is the problem, so
// that the caller can ask again with a corrective message.
//
// Every call is recorded through Config.Recorder with its purpose, model,
// tokens, latency, attempts, outcome and cost; never message contents.
func (c *Client) Complete(ctx context.Context, req Request) (*Response, error) {
	start := c.cfg.Clock.Now()
	params, err := c.params(req)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	var (
		resp *Response
		cerr *CallError
		n    int
	)
	for n = 1; ; n++ {
		var delay time.Duration
		resp, cerr, delay = c.attempt(ctx, params)
		if err := ctx.Err(); err != nil {
			c.record(ctx, req.Purpose, nil, n, start, err)
			return nil, fmt.Errorf("model call: %w", err)
		}
		if cerr == nil {
			break
		}
		cerr.Attempts = n
		cerr.Elapsed = c.cfg.Clock.Now().Sub(start)
		if delay < 0 || n > c.cfg.MaxRetries {
			break
		}
		if delay == 0 {
			delay = c.backoff(n)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < delay {
			break // the caller cannot wait that long: give up now with the real reason
		}
		if err := c.cfg.Clock.Sleep(ctx, delay); err != nil {
			c.record(ctx, req.Purpose, nil, n, start, err)
			return nil, fmt.Errorf("model call: %w", err)
		}
	}
	if cerr != nil {
		cerr.Elapsed = c.cfg.Clock.Now().Sub(start)
		c.record(ctx, req.Purpose, nil, n, start, cerr)
		return nil, cerr
	}
	if len(resp.ToolCalls) == 0 && forcesTool(req.ToolChoice) {
		// A server that ignored tool_choice: the model may have written
		// the call as text (see quirks.go).
		if calls, ok := callsInText(resp.Content, req.Tools); ok {
			resp.ToolCalls, resp.Content = calls, ""
		}
	}
	resp.Attempts = n
	resp.Counted = Usage{In: countRequest(req), Out: countResponse(resp)}
	resp.Latency = c.cfg.Clock.Now().Sub(start)
	resp.Cost = c.cfg.Prices[c.cfg.Model].Cost(resp.Usage)
	if req.Check != nil {
		if err := req.Check(resp); err != nil {
			cerr = &CallError{Kind: ErrBadResponse, Attempts: n, Elapsed: resp.Latency, Detail: clip(err.Error(), maxDetail), Err: err}
			c.record(ctx, req.Purpose, resp, n, start, cerr)
			return resp, cerr
		}
	}
	c.record(ctx, req.Purpose, resp, n, start, nil)
	return resp, nil
}

// attempt sends one request. It returns the answer, or the failure with the
// wait the server asked for (0: none said; -1: do not retry).
func (c *Client) attempt(ctx context.Context, params openai.ChatCompletionNewParams) (*Response, *CallError, time.Duration) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var hr *http.Response
	cc, err := c.oa.Chat.Completions.New(actx, params, option.WithResponseInto(&hr))
	if err == nil {
		r, perr := response(cc)
		if perr != nil {
			return nil, &CallError{Kind: ErrBadResponse, Status: http.StatusOK, Detail: perr.Error(), Err: perr}, 0
		}
		return r, nil, 0
	}
	if ctx.Err() != nil {
		return nil, &CallError{Err: ctx.Err()}, -1
	}
	big, tooLarge := isTooLarge(err)
	if tooLarge && (hr == nil || hr.StatusCode < 400) {
		// Status 200 tells an answer that could not be read from one
		// that Check refused.
		return nil, &CallError{Kind: ErrBadResponse, Status: http.StatusOK, Detail: big.Error(), Err: err}, 0
	}
	var ne net.Error
	if actx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return nil, &CallError{Kind: ErrTimeout, Timeout: c.cfg.Timeout, Err: err}, 0
	}
	if hr == nil {
		return nil, &CallError{Kind: ErrUnreachable, BaseURL: c.cfg.BaseURL, Detail: short(transportReason(err)), Err: err}, 0
	}
	status := hr.StatusCode
	if status < 400 {
		return nil, &CallError{Kind: ErrBadResponse, Status: status, Detail: "cannot read the answer: " + short(err.Error()), Err: err}, 0
	}
	ce := &CallError{Status: status, Err: err}
	if tooLarge {
		ce.Detail = big.Error()
	} else {
		ce.Detail = serverMessage(err, hr)
	}
	wait := c.retryAfter(hr.Header)
	switch {
	case status == http.StatusTooManyRequests:
		ce.Kind = ErrRateLimited
	case status >= 500, status == http.StatusRequestTimeout, status == http.StatusConflict:
		ce.Kind = ErrServer
	default:
		ce.Kind = ErrRejected
		wait = -1
	}
	return nil, ce, wait
}

// backoff is the wait after the n-th failed attempt: Backoff·2^(n-1), capped
// at MaxBackoff, of which the upper half is jittered.
func (c *Client) backoff(n int) time.Duration {
	d := c.cfg.Backoff
	for i := 1; i < n && d < c.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, c.cfg.MaxBackoff)
	return d/2 + time.Duration(c.cfg.Jitter()*float64(d/2))
}

// retryAfter reads retry-after-ms, or Retry-After in seconds or as an HTTP
// date, capped at MaxRetryAfter. It returns 0 when there is none.
func (c *Client) retryAfter(h http.Header) time.Duration {
	var d time.Duration
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			d = time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); d == 0 && v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil {
			d = time.Duration(s * float64(time.Second))
		} else if t, err := http.ParseTime(v); err == nil {
			d = t.Sub(c.cfg.Clock.Now())
		}
	}
	if d <= 0 {
		return 0
	}
	return min(d, c.cfg.MaxRetryAfter)
}

// record keeps the call; a recorder error is ignored (see session.CallRecorder).
func (c *Client) record(ctx context.Context, purpose string, r *Response, attempts int, start time.Time, err error) {
	if c.cfg.Recorder == nil {
		return
	}
	mc := &session.ModelCall{
		RunID:     c.cfg.RunID,
		Purpose:   purpose,
		Model:     c.cfg.Model,
		Attempts:  attempts,
		Outcome:   Outcome(err),
		LatencyMS: c.cfg.Clock.Now().Sub(start).Milliseconds(),
		At:        start,
	}
	if r != nil {
		mc.TokensIn, mc.TokensOut, mc.Cost = r.Usage.In, r.Usage.Out, r.Cost
		mc.LatencyMS = r.Latency.Milliseconds()
	}
	mc.Purpose, mc.Model, mc.Outcome = c.cfg.Redactor.String(mc.Purpose), c.cfg.Redactor.String(mc.Model), c.cfg.Redactor.String(mc.Outcome)
	_ = c.cfg.Recorder.RecordModelCall(context.WithoutCancel(ctx), mc)
}

// serverMessage is the server's own error text: the "message" of an OpenAI
// error body, else the body itself, shortened.
func serverMessage(err error, hr *http.Response) string {
	var ae *openai.Error
	if errors.As(err, &ae) && ae.Message != "" {
		return short(ae.Message)
	}
	if hr != nil && hr.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(hr.Body, 4096))
		return short(string(b))
	}
	return ""
}

// transportReason is the last, most specific part of a transport error:
// "connection refused" rather than the whole chain of URLs.
func transportReason(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return err.Error()
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
