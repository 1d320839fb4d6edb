package main

import (
	"errors"
	"testing"
)

func TestParseErrorsCountFilesInTheSingular(t *testing.T) {
	p := &parseErrors{}
	p.add(errors.New("a.e2e.yaml:1:1: bad"))
	if got, want := p.Error(), "1 test file has problems"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	p.add(errors.New("b.e2e.yaml:1:1: bad"))
	if got, want := p.Error(), "2 test files have problems"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
