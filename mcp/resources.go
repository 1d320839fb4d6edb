package mcp

import (
	"context"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session/testfile"
)

// addResources offers the project's test files (e2e://tests/{path}) and
// the last run's JSON report (e2e://report/last).
func (s *Server) addResources() {
	s.srv.AddResourceTemplate(&sdk.ResourceTemplate{Name: "test", Title: "A test file of the project", MIMEType: "application/yaml",
		URITemplate: "e2e://tests/{+path}", Description: "A *.e2e.yaml file, by its path relative to the project directory."}, s.readTest)
	s.srv.AddResource(&sdk.Resource{Name: "last-report", Title: "The last run's report", MIMEType: "application/json",
		URI: "e2e://report/last", Description: "The JSON report of the last run_tests call of this server."}, s.readReport)
	s.srv.AddResource(&sdk.Resource{Name: "tests", Title: "The project's test files", MIMEType: "text/plain",
		URI: "e2e://tests", Description: "The test files e2e.yaml names, one a line, each readable as e2e://tests/PATH."}, s.listTests)
	s.srv.AddResource(&sdk.Resource{Name: "flows", Title: "The project's flows", MIMEType: "text/plain",
		URI: "e2e://flows", Description: "The flows e2e.yaml's flows: names, one a line: NAME (PARAMS): PATH. A test step runs one with " +
			`use: { flow: NAME, with: { PARAM: TEXT } } (or use: NAME when it has no params) in a test file.`}, s.listFlows)
}

// listFlows lists the flows that parse, each with its params and file;
// the problems of the others, each at its file:line:col, after them.
func (s *Server) listFlows(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	flows, errs := testfile.LoadFlows(s.o.Config)
	var b strings.Builder
	for _, f := range flows.All() {
		rel := f.ShownFile()
		if _, r, err := s.projectPath(f.File); err == nil {
			rel = r
		}
		b.WriteString(f.Name + " (" + strings.Join(f.Params, ", ") + "): " + rel + "\n")
	}
	for _, err := range errs {
		b.WriteString("problem: " + strings.ReplaceAll(err.Error(), "\n", "\n  ") + "\n")
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: s.o.Redactor.String(b.String())}}}, nil
}

func (s *Server) readTest(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	p := strings.TrimPrefix(uri, "e2e://tests/")
	abs, _, err := s.projectPath(p)
	if err != nil || !strings.HasSuffix(abs, ".e2e.yaml") {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/yaml", Text: s.o.Redactor.String(string(b))}}}, nil
}

func (s *Server) readReport(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	s.mu.Lock()
	last := s.last
	s.mu.Unlock()
	if last == nil {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(last)}}}, nil
}

func (s *Server) listTests(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	paths, err := testfile.Discover(s.o.Config, nil)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, p := range paths {
		if _, rel, err := s.projectPath(p); err == nil {
			b.WriteString(rel + "\n")
		}
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: b.String()}}}, nil
}
