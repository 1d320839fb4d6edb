package browser

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestGraceContextOutlivesTheDeadlineButNotACancel(t *testing.T) {
	parent, cancelParent := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancelParent()
	<-parent.Done()
	c, cancel := graceContext(parent, time.Hour)
	if c.Err() != nil {
		t.Fatal("the grace context ended with its parent's deadline")
	}
	cancel()
	if c.Err() == nil {
		t.Fatal("cancel did not end it")
	}
	p2, cancel2 := context.WithCancel(context.Background())
	c2, cancelC2 := graceContext(p2, time.Hour)
	defer cancelC2()
	cancel2()
	<-c2.Done() // a cancel of the parent ends it
	c3, cancel3 := graceContext(context.Background(), time.Millisecond)
	defer cancel3()
	<-c3.Done()
	if !errors.Is(c3.Err(), context.DeadlineExceeded) {
		t.Errorf("after its own time: %v", c3.Err())
	}
}
