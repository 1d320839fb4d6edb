package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxFrameBytes bounds one message the stdio server reads (one line, its
// newline left out). A longer line is answered with an invalid-request
// error and skipped without being held in memory.
const MaxFrameBytes = 16 << 20

// MaxFrameDepth bounds how deeply a message's objects and arrays nest.
const MaxFrameDepth = 64

// frameReader stands between standard input and the SDK's stdio transport:
// it reads one line at a time, at most limit bytes of it held in memory,
// and hands on only lines that are one well-formed JSON-RPC 2.0 message.
// Any other line is answered on out with a JSON-RPC error (parse error
// -32700 or invalid request -32600, with the message's id when it has a
// usable one, else null), or dropped when blank, and reading goes on: one
// bad line never ends the session.
type frameReader struct {
	in    io.ReadCloser
	br    *bufio.Reader
	out   io.Writer // shared with the SDK's writes (see lockedWriter)
	limit int

	buf []byte // the line being read
	cur []byte // the rest of the frame being handed on, newline included
	err error  // the input's error, returned once the frames before it are handed on
}

func newFrameReader(in io.ReadCloser, out io.Writer, limit int) *frameReader {
	return &frameReader{in: in, br: bufio.NewReaderSize(in, 64<<10), out: out, limit: limit}
}

// Read hands on the next well-formed frames, answering the others.
func (r *frameReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		line, tooLong, err := r.readLine()
		if err != nil {
			r.err = err // the line read before it is still a frame
		}
		if tooLong {
			if werr := r.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
				"message too large: a line holds at most %d bytes (%d MiB); it was skipped", r.limit, r.limit>>20)); werr != nil {
				return 0, werr
			}
			continue
		}
		frame := bytes.TrimSpace(line)
		if len(frame) == 0 {
			continue // a blank line carries nothing to answer
		}
		if bad := checkFrame(frame); bad != nil {
			if werr := r.reply(bad.id, bad.code, bad.msg); werr != nil {
				return 0, werr
			}
			continue
		}
		// The SDK's decoder wants nothing after the message but its newline.
		r.cur = append(frame, '\n')
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	if len(r.cur) == 0 && cap(r.buf) > 1<<20 {
		r.buf = nil // a large frame's buffer is not kept for the next
	}
	return n, nil
}

// readLine reads up to the next newline (or the end of the input). A line
// longer than the limit is read to its end and dropped as it goes: only
// limit bytes are ever held.
func (r *frameReader) readLine() (line []byte, tooLong bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if !tooLong {
			switch need := len(r.buf) + len(chunk); {
			case need > r.limit+len("\r\n"):
				tooLong, r.buf = true, nil
			case need > cap(r.buf):
				// Grow as append would, but never past the bound.
				b := make([]byte, len(r.buf), min(max(2*cap(r.buf), need, 4<<10), r.limit+len("\r\n")))
				copy(b, r.buf)
				r.buf = append(b, chunk...)
			default:
				r.buf = append(r.buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !tooLong && len(bytes.TrimRight(r.buf, "\r\n")) > r.limit {
			tooLong, r.buf = true, nil
		}
		return r.buf, tooLong, err
	}
}

// Close closes the input.
func (r *frameReader) Close() error { return r.in.Close() }

// reply writes a JSON-RPC error answering a refused frame.
func (r *frameReader) reply(id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return err
	}
	_, err = r.out.Write(append(b, '\n'))
	return err
}

// badFrame is why a frame is refused, and the id to answer it with (nil:
// null).
type badFrame struct {
	code int64
	msg  string
	id   json.RawMessage
}

func parseError(msg string) *badFrame {
	return &badFrame{code: jsonrpc.CodeParseError, msg: "parse error: " + msg}
}

func invalid(id json.RawMessage, msg string) *badFrame {
	return &badFrame{code: jsonrpc.CodeInvalidRequest, msg: "invalid request: " + msg, id: id}
}

// checkFrame says why frame (one line, trimmed) is not one well-formed
// JSON-RPC 2.0 message the SDK can take, or nil when it is.
func checkFrame(frame []byte) *badFrame {
	if !utf8.Valid(frame) {
		return parseError("the line is not UTF-8")
	}
	if nestedDeeper(frame, MaxFrameDepth) {
		if !json.Valid(frame) {
			return parseError("the line is not one JSON value")
		}
		return invalid(nil, fmt.Sprintf("objects and arrays nest deeper than %d levels", MaxFrameDepth))
	}
	if !json.Valid(frame) {
		return parseError("the line is not one JSON value")
	}
	switch frame[0] {
	case '[':
		return invalid(nil, "batches are not served (MCP has none since 2025-06-18): send one message a line")
	case '{':
	default:
		return invalid(nil, "a message is a JSON object")
	}
	var m map[string]json.RawMessage // exact keys, as the SDK reads them
	if err := json.Unmarshal(frame, &m); err != nil {
		return parseError(err.Error())
	}
	id, hasID := m["id"]
	if hasID && !isNull(id) && !validID(id) {
		return invalid(nil, "id must be a string or an integer")
	}
	if !hasID || isNull(id) {
		id = nil
	}
	if v, ok := m["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return invalid(id, `"jsonrpc" must be "2.0"`)
	}
	if method, ok := m["method"]; ok {
		if !isString(method) {
			return invalid(id, `"method" must be a string`)
		}
		if p, ok := m["params"]; ok && !isNull(p) && p[0] != '{' && p[0] != '[' {
			return invalid(id, `"params" must be an object or an array`)
		}
	} else {
		_, result := m["result"]
		e, hasErr := m["error"]
		switch {
		case id == nil:
			return invalid(nil, `a message needs a "method" (a request) or an "id" (a response)`)
		case result == hasErr:
			return invalid(id, `a response holds one of "result" and "error"`)
		case hasErr && !validError(e):
			return invalid(id, `"error" must be an object with an integer "code" and a string "message"`)
		}
	}
	// The SDK's own decoding is the last word: what it cannot read would
	// end the session.
	if _, err := jsonrpc.DecodeMessage(frame); err != nil {
		return invalid(id, err.Error())
	}
	return nil
}

// nestedDeeper reports whether b's objects and arrays nest deeper than max
// (strings skipped); it stops at the first level too deep.
func nestedDeeper(b []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

func isNull(v json.RawMessage) bool   { return string(v) == "null" }
func isString(v json.RawMessage) bool { return len(v) > 0 && v[0] == '"' }

// validID: a string, or a number with an integer value that a float64
// holds exactly (the SDK reads ids as float64).
func validID(v json.RawMessage) bool {
	if isString(v) {
		return true
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		return false
	}
	return f == math.Trunc(f) && math.Abs(f) <= 1<<53
}

func validError(v json.RawMessage) bool {
	var e struct {
		Code    *json.Number `json:"code"`
		Message *string      `json:"message"`
	}
	if len(v) == 0 || v[0] != '{' || json.Unmarshal(v, &e) != nil || e.Code == nil || e.Message == nil {
		return false
	}
	_, err := e.Code.Int64()
	return err == nil
}

// lockedWriter makes each Write whole: the SDK's messages and the frame
// reader's error replies never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }
