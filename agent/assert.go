package agent

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session/ax"
)

// The judge_assertion tool: the asserter's only tool. Its description and
// JSON schema sit beside this file, in tools/; the system prompt in prompts/.
var (
	//go:embed tools/judge_assertion.md
	judgeAssertionDoc string
	//go:embed tools/judge_assertion.json
	judgeAssertionSchema []byte
	//go:embed prompts/assert.md
	assertPrompt string
)

// JudgeAssertion is the name of the asserter's tool.
const JudgeAssertion = "judge_assertion"

// MaxReasoning caps, in characters, the reasoning Judge returns.
const MaxReasoning = 500

// Asserter judges natural-language assertions ("the cart shows 2 items",
// "no error message is visible") against a page's accessibility snapshot.
// It is never answered from a cache: every Judge asks the model.
//
// It sends the claim as given, placeholders such as {{ secret.PASSWORD }}
// unresolved, and the snapshot's outline, and forces one call of the
// judge_assertion tool: reasoning, evidence, then the verdict.
type Asserter struct {
	Client *Client
	// MaxOutline caps the outline sent, in characters; zero means
	// DefaultMaxOutline. The rules are the Locator's: a longer page is sent
	// as its interactive outline, and cut if that is still too long, with a
	// note saying so.
	MaxOutline int
}

// judgeAssertionArgs are the tool's arguments. Pass is a pointer so that a
// missing verdict is told from false.
type judgeAssertionArgs struct {
	Reasoning string   `json:"reasoning"`
	Evidence  []string `json:"evidence"`
	Pass      *bool    `json:"pass"`
}

// Judge asks the model whether claim holds on s. It returns the verdict, the
// model's reasoning with the evidence it cited (at most MaxReasoning
// characters), and the number of model calls made, also on error.
//
// When the snapshot does not show enough to decide, the model is told to
// fail the claim. A malformed answer (no tool call, text instead, an unknown
// tool, arguments that are not JSON, no pass) is asked again once with a
// message naming the problem; a second one fails with an error matching
// ErrBadResponse. Failures of the model call itself are the client's errors
// (see Client.Complete), wrapped.
func (a *Asserter) Judge(ctx context.Context, s *ax.Snapshot, claim string) (pass bool, reasoning string, calls int, err error) {
	const op = "judge assertion with the model"
	if a.Client == nil {
		return false, "", 0, fmt.Errorf("%s: %w: no client", op, ErrConfig)
	}
	if s == nil {
		return false, "", 0, fmt.Errorf("%s: no snapshot", op)
	}
	tool, err := judgeAssertionTool()
	if err != nil {
		return false, "", 0, fmt.Errorf("%s: %w", op, err)
	}
	var got judgeAssertionArgs
	req := Request{
		Purpose: "assert",
		Messages: []Message{
			{Role: RoleSystem, Content: strings.TrimSpace(assertPrompt)},
			{Role: RoleUser, Content: a.question(s, claim)},
		},
		Tools:      []Tool{tool},
		ToolChoice: JudgeAssertion,
		Check: func(r *Response) error {
			v, err := readVerdict(r)
			got = v
			return err
		},
	}
	calls, err = a.Client.completeForced(ctx, req, "Call "+JudgeAssertion+" once, with valid JSON arguments: reasoning, evidence, and pass as true or false.")
	if err != nil {
		return false, "", calls, fmt.Errorf("%s: %w", op, err)
	}
	return *got.Pass, explain(got), calls, nil
}

// question is the user message: the claim, the page and its outline.
func (a *Asserter) question(s *ax.Snapshot, claim string) string {
	outline, note := (&Locator{MaxOutline: a.MaxOutline}).outline(s)
	var b strings.Builder
	b.WriteString("Claim: " + claim + "\n\n")
	b.WriteString("Page: " + strconv.Quote(s.Title) + " at " + s.URL + "\n")
	if note != "" {
		b.WriteString("Note: " + note + "\n")
	}
	b.WriteString("\n<snapshot>\n" + outline + "</snapshot>\n")
	return b.String()
}

// judgeAssertionTool is the tool as offered to the model, its properties in
// the order reasoning, evidence, pass: the verdict comes last.
func judgeAssertionTool() (Tool, error) {
	params, err := orderedSchema(judgeAssertionSchema)
	if err != nil {
		return Tool{}, fmt.Errorf("%s schema: %w", JudgeAssertion, err)
	}
	return Tool{Name: JudgeAssertion, Description: strings.TrimSpace(judgeAssertionDoc), Parameters: params}, nil
}

// readVerdict validates a response to a forced judge_assertion call. Its
// error is a sentence fit to show the model.
func readVerdict(r *Response) (judgeAssertionArgs, error) {
	var v judgeAssertionArgs
	tc, err := onlyCall(r, JudgeAssertion)
	if err != nil {
		return v, err
	}
	if err := DecodeArguments(tc, &v); err != nil {
		return v, err
	}
	if v.Pass == nil {
		return v, fmt.Errorf("the arguments of %s have no pass; give pass as true or false", JudgeAssertion)
	}
	return v, nil
}

// explain is the reasoning with the evidence cited, on one line, cut to
// MaxReasoning characters.
func explain(v judgeAssertionArgs) string {
	s := strings.Join(strings.Fields(v.Reasoning), " ")
	var ev []string
	for _, e := range v.Evidence {
		if e = strings.Join(strings.Fields(e), " "); e != "" {
			ev = append(ev, e)
		}
	}
	if len(ev) > 0 {
		if s != "" {
			s += " "
		}
		s += "(evidence: " + strings.Join(ev, "; ") + ")"
	}
	if s == "" {
		s = "the model gave no reasoning"
	}
	if r := []rune(s); len(r) > MaxReasoning {
		s = string(r[:MaxReasoning-1]) + "…"
	}
	return s
}
