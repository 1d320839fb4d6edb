package agent

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/step"
)

// The act agent's tools. Each one's description and JSON schema sit beside
// this file, in tools/; the system prompt in prompts/act.md.
var (
	//go:embed tools/execute_step.md
	executeStepDoc string
	//go:embed tools/execute_step.json
	executeStepSchema []byte
	//go:embed tools/splice_generated_steps.md
	spliceDoc string
	//go:embed tools/splice_generated_steps.json
	spliceSchema []byte
	//go:embed tools/finish.md
	finishDoc string
	//go:embed tools/finish.json
	finishSchema []byte
	//go:embed prompts/act.md
	actPrompt string
)

// The names of the act agent's tools.
const (
	ExecuteStep          = "execute_step"
	SpliceGeneratedSteps = "splice_generated_steps"
	Finish               = "finish"
)

// Defaults for Budget fields left zero (or negative).
const (
	DefaultMaxToolCalls = 25
	DefaultMaxTokens    = 200_000
	DefaultMaxTime      = 3 * time.Minute
)

// PageOutline caps, in characters, the outline of the page shown to the
// agent after each execute_step call (the first one, in the user message,
// is capped by Actor.MaxOutline).
const PageOutline = 4000

// ErrBudget is matched by the error of an act that ran out of one of its
// budgets; the message names which: "act budget spent: 25 tool calls".
var ErrBudget = errors.New("act budget spent")

// Budget bounds one act. Zero fields take the defaults.
type Budget struct {
	// MaxToolCalls bounds the tool calls the model makes, unknown tools and
	// malformed arguments included. An answer in plain text instead of a
	// tool call counts as one too: it is a turn that did nothing.
	MaxToolCalls int
	// MaxTokens bounds the tokens the model calls consume, in and out
	// summed, each the larger of the server's usage and the client's own
	// estimate (Response.Tokens): a server reporting zero usage is still
	// counted. It is checked before each call, so the answer that crosses
	// it is still used.
	MaxTokens int
	// MaxTime bounds the act's wall time, model calls and steps included.
	MaxTime time.Duration
}

func (b Budget) withDefaults() Budget {
	if b.MaxToolCalls <= 0 {
		b.MaxToolCalls = DefaultMaxToolCalls
	}
	if b.MaxTokens <= 0 {
		b.MaxTokens = DefaultMaxTokens
	}
	if b.MaxTime <= 0 {
		b.MaxTime = DefaultMaxTime
	}
	return b
}

// Actor is a session.Actor that reaches a goal with a model calling tools
// (seed 000, AI Action v3): execute_step runs step commands through the
// ActEnv, splice_generated_steps edits the trajectory, finish ends the act
// with a postcondition.
//
// It never sees or resolves secret values: goals, contexts and commands keep
// placeholders such as {{ secret.PASSWORD }} verbatim, and the ActEnv
// substitutes them in the browser only.
type Actor struct {
	Client *Client
	Budget Budget
	// MaxOutline caps the first outline sent, in characters, by the
	// Locator's rules; zero means DefaultMaxOutline.
	MaxOutline int
}

var _ session.Actor = (*Actor)(nil)

// Act implements session.Actor.
//
// It sends the goal, the test context and the page's outline, offering the
// three tools with tool_choice "required", and runs the calls of each answer
// in order, answering each with its own tool message, until finish is
// called. Every step command that succeeds is appended to the trajectory;
// the model may edit it with splice_generated_steps. A finish with success
// false is a result, not an error.
//
// Problems of the model's making (an unknown tool, malformed arguments, a
// step command that does not parse or is too long, text instead of a tool
// call) are told to the model, which tries again within the budget. An
// answer none of whose calls could be used is malformed: its call is
// recorded with the outcome "bad-response". What the model wrote is kept in
// the conversation, printed and stored only up to the caps of limit.go, cut
// with a marker saying how much was cut.
//
// The error is one matching ErrBudget when a budget ran out — a
// *MalformedError, also matching ErrBadResponse, when every answer was
// malformed — or the model call's error (see Client.Complete) wrapped as
// "act with the model: …". Tokens are counted as the larger of the
// server's usage and the client's own estimate (Response.Tokens). The
// result holds the counts and the trajectory so far also with an error.
func (a *Actor) Act(ctx context.Context, goal, testContext string, env session.ActEnv) (session.ActResult, error) {
	if a.Client == nil {
		return session.ActResult{}, fmt.Errorf("act with the model: %w: no client", ErrConfig)
	}
	if env == nil {
		return session.ActResult{}, errors.New("act: no page to act on")
	}
	tools, err := actToolsOffered()
	if err != nil {
		return session.ActResult{}, fmt.Errorf("act: %w", err)
	}
	b := a.Budget.withDefaults()
	actx, cancel := context.WithTimeout(ctx, b.MaxTime)
	defer cancel()

	r := &actRun{env: env}
	s, err := env.Snapshot(actx)
	if err != nil {
		return r.result(), fmt.Errorf("act: snapshot: %w", err)
	}
	outline, note := (&Locator{MaxOutline: a.MaxOutline}).outline(s)
	var q strings.Builder
	q.WriteString("Goal: " + goal + "\n\n")
	if strings.TrimSpace(testContext) != "" {
		q.WriteString("Test context: " + testContext + "\n\n")
	}
	q.WriteString(pageBlock("Page", s, outline, note))
	q.WriteString("\nThe trajectory is empty. Reach the goal by calling tools; call finish when the page shows it reached.\n")
	r.msgs = []Message{
		{Role: RoleSystem, Content: systemPrompt()},
		{Role: RoleUser, Content: q.String()},
	}
	r.pages = []int{1}

	// spent is the error for a budget that ran out, or nil.
	spent := func() error {
		if ctx.Err() != nil {
			return fmt.Errorf("act: %w", ctx.Err())
		}
		var err error
		switch {
		case actx.Err() != nil:
			err = fmt.Errorf("%w: %s of wall time", ErrBudget, b.MaxTime)
		case r.toolCalls+r.nudges >= b.MaxToolCalls:
			err = fmt.Errorf("%w: %d tool calls", ErrBudget, b.MaxToolCalls)
		case r.tokens >= b.MaxTokens:
			err = fmt.Errorf("%w: %d tokens (used %d)", ErrBudget, b.MaxTokens, r.tokens)
		default:
			return nil
		}
		return r.malformedOr(err)
	}
	for {
		if err := spent(); err != nil {
			return r.result(), err
		}
		resp, err := a.Client.Complete(actx, Request{Purpose: "act", Messages: r.msgs, Tools: tools, ToolChoice: "required", Check: checkActAnswer})
		r.modelCalls++
		if err != nil {
			var bad *CallError
			if resp == nil || !errors.As(err, &bad) || bad.Kind != ErrBadResponse || bad.Status != 0 {
				if ctx.Err() == nil && actx.Err() != nil {
					return r.result(), r.malformedOr(fmt.Errorf("%w: %s of wall time (%v)", ErrBudget, b.MaxTime, err))
				}
				return r.result(), fmt.Errorf("act with the model: %w", err)
			}
			// A malformed answer (Check refused it): its calls are
			// answered with what is wrong, and the model tries again.
			r.malformed++
			if r.firstBad == "" {
				r.firstBad = bad.Detail
			}
			r.lastBad = bad.Detail
		}
		r.tokens += resp.Tokens()
		calls := slices.Clone(resp.ToolCalls)
		kept := make([]ToolCall, len(calls))
		for i := range calls {
			if calls[i].ID == "" || len(calls[i].ID) > maxCallID { // some local servers send none; a tool message needs one
				calls[i].ID = "call_" + strconv.Itoa(r.modelCalls) + "_" + strconv.Itoa(i)
			}
			kept[i] = calls[i]
			kept[i].Name = clip(calls[i].Name, maxPageLabel)
			kept[i].Arguments = clipArguments(calls[i].Arguments, MaxKeptMessage)
		}
		r.msgs = append(r.msgs, Message{Role: RoleAssistant, Content: clip(resp.Content, MaxKeptMessage), ToolCalls: kept})
		if len(calls) == 0 {
			r.nudges++
			if r.toolCalls == 0 && r.nudges >= maxTextAnswers {
				// Never a tool call, only text: the server does not make
				// the model call tools (see quirks.go).
				return r.result(), fmt.Errorf("act with the model: %w", &CallError{Kind: ErrBadResponse, Attempts: r.modelCalls,
					Detail: fmt.Sprintf("answered in text %d times and never called a tool; %s", r.nudges, ignoresToolChoice)})
			}
			r.msgs = append(r.msgs, Message{Role: RoleUser, Content: "Text alone does nothing. Answer by calling a tool: " +
				ExecuteStep + " to act on the page, " + SpliceGeneratedSteps + " to edit the trajectory, or " + Finish + " to end the act."})
			continue
		}
		for _, tc := range calls {
			// Tokens are checked before the next model call: the calls of
			// an answer already paid for are run.
			if r.toolCalls+r.nudges >= b.MaxToolCalls || actx.Err() != nil || ctx.Err() != nil {
				if err := spent(); err != nil {
					return r.result(), err
				}
			}
			r.toolCalls++
			out, page := r.dispatch(actx, tc)
			if !page { // a page's report is capped before the page is added
				out = clip(out, MaxToolResult)
			}
			r.msgs = append(r.msgs, Message{Role: RoleTool, ToolCallID: tc.ID, Content: out})
			if page {
				r.newPage(len(r.msgs) - 1)
			}
			if r.finished {
				return r.result(), nil
			}
		}
	}
}

// maxTextAnswers is how many answers in text, with no tool call before
// them, end an act: the server does not make the model call tools.
const maxTextAnswers = 3

// systemPrompt is prompts/act.md with the step types filled in.
func systemPrompt() string {
	var b strings.Builder
	for _, name := range step.TypeNames() {
		t := step.Type(name)
		if !agentType(t) {
			continue
		}
		spec := step.Types[t]
		b.WriteString("- " + name + ": " + spec.Summary)
		var fs []string
		if spec.Description != step.Forbidden && spec.DescriptionDoc != "" {
			fs = append(fs, "--description "+need(spec.Description)+spec.DescriptionDoc)
		}
		if spec.Value != step.Forbidden && spec.ValueDoc != "" {
			fs = append(fs, "--value "+need(spec.Value)+spec.ValueDoc)
		}
		if spec.Expect {
			var ks []string
			for _, k := range step.ExpectNames() {
				ks = append(ks, k+" ("+step.Expectations[step.ExpectKind(k)].Summary+")")
			}
			fs = append(fs, "--expect one of "+strings.Join(ks, ", ")+"; --description and --value as the kind needs")
		}
		if len(fs) > 0 {
			b.WriteString(" (" + strings.Join(fs, "; ") + ")")
		}
		b.WriteString("\n")
	}
	return strings.TrimSpace(strings.Replace(actPrompt, "%STEP_TYPES%", strings.TrimRight(b.String(), "\n"), 1))
}

func need(n step.Need) string {
	if n == step.Optional {
		return "(optional) "
	}
	return ""
}

// agentType reports whether the agent may run steps of type t: not ACT (an
// act inside an act) nor ASSERT (a model call on every replay; the
// postcondition is the act's check).
func agentType(t step.Type) bool { return t != step.Act && t != step.Assert }

// parseAgentStep parses a step command the model wrote. Its error is fit to
// show the model. A command longer than MaxStepCommand is refused unread.
func parseAgentStep(line string) (step.Step, error) {
	if len(line) > MaxStepCommand {
		return step.Step{}, fmt.Errorf("the command has %d characters, over the limit of %d; write a shorter one", len(line), MaxStepCommand)
	}
	st, err := step.Parse(line)
	if err != nil {
		return st, err
	}
	if !agentType(st.Type) {
		return st, fmt.Errorf("%s steps cannot run inside an act; use the step types listed in the instructions", st.Type)
	}
	return st, nil
}

// pageBlock shows a page: its title and URL, a note when the outline was
// shortened, and the outline between snapshot tags.
func pageBlock(label string, s *ax.Snapshot, outline, note string) string {
	var b strings.Builder
	b.WriteString(label + ": " + strconv.Quote(clip(s.Title, maxPageLabel)) + " at " + clip(s.URL, maxPageLabel) + "\n")
	if note != "" {
		b.WriteString("Note: " + note + "\n")
	}
	b.WriteString("\n" + snapshotOpen + outline + snapshotClose + "\n")
	return b.String()
}

const (
	snapshotOpen  = "<snapshot>\n"
	snapshotClose = "</snapshot>"
	staleOutline  = "(an earlier state of the page; the latest is shown further on)\n"
)

// actTool is one of the agent's tools: its description, its schema, the
// check that a call's arguments are usable whatever the state of the act,
// and the handler that answers a call. A handler returns the tool message's
// content and whether it shows the page as it is now.
type actTool struct {
	doc    *string
	schema *[]byte
	check  func(tc ToolCall) error
	handle func(r *actRun, ctx context.Context, tc ToolCall) (out string, page bool)
}

// actTools is every tool the agent is offered, by name.
var actTools = map[string]actTool{
	ExecuteStep:          {&executeStepDoc, &executeStepSchema, checkArgs(decodeExecuteStep), (*actRun).executeStep},
	SpliceGeneratedSteps: {&spliceDoc, &spliceSchema, checkArgs(decodeSplice), (*actRun).splice},
	Finish:               {&finishDoc, &finishSchema, checkArgs(decodeFinish), (*actRun).finish},
}

// checkArgs is a tool's check: its arguments decode.
func checkArgs[T any](decode func(ToolCall) (T, error)) func(ToolCall) error {
	return func(tc ToolCall) error {
		_, err := decode(tc)
		return err
	}
}

// unknownTool is the answer to a call of a tool that does not exist.
func unknownTool(name string) error {
	return fmt.Errorf("there is no tool %q. The tools are %s, %s and %s", clip(name, 100), ExecuteStep, SpliceGeneratedSteps, Finish)
}

// checkActAnswer is the act's Request.Check: an answer is malformed when
// none of its calls can be used — text alone, unknown tools, arguments that
// do not decode or lack what the tool needs. Its error says what is wrong
// with the first call.
func checkActAnswer(r *Response) error {
	if len(r.ToolCalls) == 0 {
		if strings.TrimSpace(r.Content) != "" {
			return errors.New("answered in text instead of calling a tool")
		}
		return errors.New("no tool call")
	}
	var first error
	for _, tc := range r.ToolCalls {
		t, ok := actTools[tc.Name]
		err := unknownTool(tc.Name)
		if ok {
			err = t.check(tc)
		}
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// actToolOrder is the order the tools are offered in.
var actToolOrder = []string{ExecuteStep, SpliceGeneratedSteps, Finish}

// actToolsOffered is the tools as offered to the model.
func actToolsOffered() ([]Tool, error) {
	var out []Tool
	for _, name := range actToolOrder {
		t := actTools[name]
		params, err := orderedSchema(*t.schema)
		if err != nil {
			return nil, fmt.Errorf("%s schema: %w", name, err)
		}
		out = append(out, Tool{Name: name, Description: strings.TrimSpace(*t.doc), Parameters: params})
	}
	return out, nil
}

// actRun is the state of one act.
type actRun struct {
	env   session.ActEnv
	msgs  []Message
	pages []int // the messages that show a page outline, oldest first
	steps []string

	modelCalls, toolCalls, nudges, tokens int

	// The answers Check refused as malformed, and what was wrong with the
	// first and the last.
	malformed         int
	firstBad, lastBad string

	finished bool
	success  bool
	message  string
	post     string
}

func (r *actRun) result() session.ActResult {
	return session.ActResult{
		Success:       r.finished && r.success,
		Message:       r.message,
		Postcondition: r.post,
		Steps:         slices.Clone(r.steps),
		ModelCalls:    r.modelCalls,
		ToolCalls:     r.toolCalls,
	}
}

// malformedOr is budget, the error of a budget that ran out, or a
// *MalformedError wrapping it when every answer so far was malformed.
func (r *actRun) malformedOr(budget error) error {
	if r.modelCalls == 0 || r.malformed < r.modelCalls {
		return budget
	}
	return &MalformedError{Answers: r.modelCalls, First: r.firstBad, Last: r.lastBad, Budget: budget}
}

// newPage notes that message i shows the page now, and cuts the outline
// out of the one shown before it: the model acts on the latest page, and
// old outlines would only spend tokens.
func (r *actRun) newPage(i int) {
	if n := len(r.pages); n > 0 {
		m := &r.msgs[r.pages[n-1]]
		open := strings.Index(m.Content, snapshotOpen)
		end := strings.LastIndex(m.Content, snapshotClose)
		if open >= 0 && end > open {
			m.Content = m.Content[:open+len(snapshotOpen)] + staleOutline + m.Content[end:]
		}
	}
	r.pages = append(r.pages, i)
}

// dispatch runs one tool call.
func (r *actRun) dispatch(ctx context.Context, tc ToolCall) (string, bool) {
	t, ok := actTools[tc.Name]
	if !ok {
		return "ERROR: " + unknownTool(tc.Name).Error() + ".", false
	}
	return t.handle(r, ctx, tc)
}

// executeStepArgs are execute_step's arguments.
type executeStepArgs struct {
	Steps []string `json:"steps"`
}

// executeStep runs the step commands in order until one fails, appends the
// ones that succeed to the trajectory and shows the page as it is now.
func (r *actRun) executeStep(ctx context.Context, tc ToolCall) (string, bool) {
	args, err := decodeExecuteStep(tc)
	if err != nil {
		return "ERROR: " + err.Error() + ". Nothing was run.", false
	}
	var b strings.Builder
	ran, failed, stop := 0, false, 0
	for i, line := range args.Steps {
		stop = i
		fmt.Fprintf(&b, "step %d: ", i+1)
		st, err := parseAgentStep(line)
		if err != nil {
			fmt.Fprintf(&b, "FAILED, not run: the command is not valid\n  command: %s\n  error: %v\n", clip(line, maxPageLabel), err)
			failed = true
			break
		}
		out := r.env.Execute(ctx, st.String())
		ran++
		cmd := out.Command
		if cmd == "" { // the env said only the cache id: print the step with it
			withID := st
			withID.CacheID = out.CacheID
			if withID.Validate() != nil {
				withID.CacheID = ""
			}
			cmd = withID.String()
		}
		if !out.OK {
			fmt.Fprintf(&b, "FAILED\n  command: %s\n  result: %s\n", cmd, clip(oneLine(out.Result), maxResultLine))
			failed = true
			break
		}
		r.steps = append(r.steps, cmd)
		fmt.Fprintf(&b, "OK\n  command: %s\n  result: %s\n", cmd, clip(oneLine(out.Result), maxResultLine))
		if out.CacheID != "" {
			fmt.Fprintf(&b, "  cache id: %s\n", out.CacheID)
		}
		fmt.Fprintf(&b, "  trajectory index: %d\n", len(r.steps)-1)
	}
	if failed && stop+1 < len(args.Steps) {
		fmt.Fprintf(&b, "steps %d to %d: NOT RUN, an earlier step failed\n", stop+2, len(args.Steps))
	}
	report := clip(b.String(), MaxToolResult)
	if ran == 0 {
		return strings.TrimRight(report, "\n"), false // the page did not change
	}
	s, err := r.env.Snapshot(ctx)
	if err != nil {
		return report + fmt.Sprintf("\nThe page now: cannot be shown (%s)", clip(err.Error(), maxResultLine)), false
	}
	outline, note := (&Locator{MaxOutline: PageOutline}).outline(s)
	return report + "\n" + pageBlock("The page now", s, outline, note), true
}

// maxResultLine caps one step's result line in execute_step's report.
const maxResultLine = 2000

// decodeExecuteStep reads execute_step's arguments: 1 to MaxStepsPerCall
// steps. Its error is fit to show the model.
func decodeExecuteStep(tc ToolCall) (executeStepArgs, error) {
	var args executeStepArgs
	if err := DecodeArguments(tc, &args); err != nil {
		return args, err
	}
	if len(args.Steps) == 0 {
		return args, errors.New(ExecuteStep + " needs steps: a list of step commands")
	}
	if len(args.Steps) > MaxStepsPerCall {
		return args, fmt.Errorf("%s takes at most %d steps a call, not %d", ExecuteStep, MaxStepsPerCall, len(args.Steps))
	}
	return args, nil
}

// spliceArgs are splice_generated_steps' arguments; the indexes are
// pointers so that a missing one is told from 0.
type spliceArgs struct {
	Steps       []string `json:"steps"`
	StartIndex  *int     `json:"startIndex"`
	DeleteCount *int     `json:"deleteCount"`
}

// splice edits the trajectory like JavaScript's Array.prototype.splice.
func (r *actRun) splice(_ context.Context, tc ToolCall) (string, bool) {
	args, err := decodeSplice(tc)
	if err != nil {
		return "ERROR: " + err.Error() + ". The trajectory is unchanged.", false
	}
	n := len(r.steps)
	switch {
	case *args.StartIndex < 0 || *args.StartIndex > n:
		return fmt.Sprintf("ERROR: startIndex %d is outside the trajectory, which has %d steps (0 to %d). The trajectory is unchanged.", *args.StartIndex, n, n), false
	case *args.DeleteCount < 0 || *args.StartIndex+*args.DeleteCount > n:
		return fmt.Sprintf("ERROR: deleteCount %d from startIndex %d runs past the trajectory, which has %d steps. The trajectory is unchanged.", *args.DeleteCount, *args.StartIndex, n), false
	}
	ins := make([]string, 0, len(args.Steps))
	for i, line := range args.Steps {
		st, err := parseAgentStep(line)
		if err != nil {
			return fmt.Sprintf("ERROR: step %d is not valid: %v. The trajectory is unchanged.", i+1, err), false
		}
		ins = append(ins, st.String())
	}
	start, del := *args.StartIndex, *args.DeleteCount
	r.steps = slices.Concat(r.steps[:start:start], ins, r.steps[start+del:])
	return "OK. " + r.trajectory(), false
}

// decodeSplice reads splice_generated_steps' arguments: both indexes, at
// most MaxStepsPerCall steps. Its error is fit to show the model.
func decodeSplice(tc ToolCall) (spliceArgs, error) {
	var args spliceArgs
	if err := DecodeArguments(tc, &args); err != nil {
		return args, err
	}
	if args.StartIndex == nil || args.DeleteCount == nil {
		return args, errors.New(SpliceGeneratedSteps + " needs startIndex and deleteCount")
	}
	if len(args.Steps) > MaxStepsPerCall {
		return args, fmt.Errorf("%s takes at most %d steps a call, not %d", SpliceGeneratedSteps, MaxStepsPerCall, len(args.Steps))
	}
	return args, nil
}

// trajectory lists the trajectory, numbered from 0.
func (r *actRun) trajectory() string {
	if len(r.steps) == 0 {
		return "The trajectory is empty."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The trajectory has %d steps:\n", len(r.steps))
	for i, s := range r.steps {
		fmt.Fprintf(&b, "%d: %s\n", i, s)
	}
	return strings.TrimRight(b.String(), "\n")
}

// finishArgs are finish's arguments; Success is a pointer so that a missing
// one is told from false.
type finishArgs struct {
	Success       *bool  `json:"success"`
	Message       string `json:"message"`
	Postcondition string `json:"autoGeneratedPostcondition"`
}

// finish ends the act, keeping the message and the postcondition up to
// MaxFinishMessage and MaxPostcondition bytes.
func (r *actRun) finish(_ context.Context, tc ToolCall) (string, bool) {
	args, err := decodeFinish(tc)
	if err != nil {
		return "ERROR: " + err.Error() + ". The act goes on.", false
	}
	r.finished, r.success = true, *args.Success
	r.message = clip(strings.TrimSpace(args.Message), MaxFinishMessage)
	r.post = clip(strings.TrimSpace(args.Postcondition), MaxPostcondition)
	return "Finished.", false
}

// decodeFinish reads finish's arguments: success, and a postcondition with
// success true. Its error is fit to show the model.
func decodeFinish(tc ToolCall) (finishArgs, error) {
	var args finishArgs
	if err := DecodeArguments(tc, &args); err != nil {
		return args, err
	}
	if args.Success == nil {
		return args, errors.New(Finish + " needs success, true or false")
	}
	if *args.Success && strings.TrimSpace(args.Postcondition) == "" {
		return args, errors.New("with success true, " + Finish + " needs autoGeneratedPostcondition: one sentence on what the page shows now that the goal is reached")
	}
	return args, nil
}

// oneLine folds a result onto one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(none)"
	}
	return s
}
