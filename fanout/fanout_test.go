package fanout_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/fanout"
)

func TestWire(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   fanout.Event
		wire string
	}{
		{"update", fanout.Event{Kind: fanout.ResourceUpdated, URI: "file:///a", Origin: "o1", Seq: 7},
			`{"v":1,"kind":"resources/updated","uri":"file:///a","origin":"o1","seq":7}`},
		{"tools", fanout.Event{Kind: fanout.ToolsListChanged, Origin: "o1", Seq: 1},
			`{"v":1,"kind":"tools/list_changed","origin":"o1","seq":1}`},
		{"prompts unnumbered", fanout.Event{Kind: fanout.PromptsListChanged, Origin: "o2"},
			`{"v":1,"kind":"prompts/list_changed","origin":"o2"}`},
		{"resources", fanout.Event{Kind: fanout.ResourcesListChanged, Origin: "o3", Seq: 2},
			`{"v":1,"kind":"resources/list_changed","origin":"o3","seq":2}`},
		{"task status", fanout.Event{Kind: fanout.TaskStatus, TaskID: "t1", Status: "completed", Origin: "o4", Seq: 3},
			`{"v":1,"kind":"tasks","task":"t1","status":"completed","origin":"o4","seq":3}`},
		{"task status without status", fanout.Event{Kind: fanout.TaskStatus, TaskID: "t2", Origin: "o4"},
			`{"v":1,"kind":"tasks","task":"t2","origin":"o4"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.ev.MarshalJSON()
			if err != nil || string(b) != tc.wire {
				t.Fatalf("MarshalJSON = %s, %v; want %s", b, err, tc.wire)
			}
			var got fanout.Event
			if err := got.UnmarshalJSON(b); err != nil || got != tc.ev {
				t.Fatalf("UnmarshalJSON = %+v, %v; want %+v", got, err, tc.ev)
			}
		})
	}
}

func TestWireRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, wire string
		version    bool // ErrVersion
	}{
		{"newer version", `{"v":2,"kind":"tools/list_changed","origin":"o"}`, true},
		{"no version", `{"kind":"tools/list_changed","origin":"o"}`, true},
		{"unknown kind", `{"v":1,"kind":"roots/list_changed","origin":"o"}`, false},
		{"update without uri", `{"v":1,"kind":"resources/updated","origin":"o"}`, false},
		{"list change with uri", `{"v":1,"kind":"tools/list_changed","uri":"x:y","origin":"o"}`, false},
		{"task status without task", `{"v":1,"kind":"tasks","status":"working","origin":"o"}`, false},
		{"task status with uri", `{"v":1,"kind":"tasks","task":"t","uri":"x:y","origin":"o"}`, false},
		{"update with task", `{"v":1,"kind":"resources/updated","uri":"x:y","task":"t","origin":"o"}`, false},
		{"list change with status", `{"v":1,"kind":"tools/list_changed","status":"working","origin":"o"}`, false},
		{"not json", `PING`, false},
		{"not an object", `[1]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ev fanout.Event
			err := ev.UnmarshalJSON([]byte(tc.wire))
			if err == nil {
				t.Fatalf("decoded %+v", ev)
			}
			if errors.Is(err, fanout.ErrVersion) != tc.version {
				t.Errorf("err = %v; ErrVersion expected: %v", err, tc.version)
			}
		})
	}
	if _, err := (fanout.Event{Kind: "nope"}).MarshalJSON(); err == nil {
		t.Error("an unknown kind was encoded")
	}
}

// Fields added within version 1 are ignored by readers that do not know
// them.
func TestWireIgnoresNewFields(t *testing.T) {
	var ev fanout.Event
	err := ev.UnmarshalJSON([]byte(`{"v":1,"kind":"resources/updated","uri":"a:b","origin":"o","seq":3,"tenant":"x"}`))
	if want := (fanout.Event{Kind: fanout.ResourceUpdated, URI: "a:b", Origin: "o", Seq: 3}); err != nil || ev != want {
		t.Errorf("got %+v, %v; want %+v", ev, err, want)
	}
}

func TestMemory(t *testing.T) {
	var m fanout.Memory
	var got1, got2 []fanout.Event
	cancel1 := m.Subscribe(func(ev fanout.Event) { got1 = append(got1, ev) })
	cancel2 := m.Subscribe(func(ev fanout.Event) { got2 = append(got2, ev) })
	ev := fanout.Event{Kind: fanout.ResourceUpdated, URI: "a:b", Origin: "o", Seq: 1}
	if err := m.Publish(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	cancel1()
	cancel1()
	if n := m.Subscribers(); n != 1 {
		t.Errorf("%d subscribers, want 1", n)
	}
	m.Publish(context.Background(), ev)
	if len(got1) != 1 || len(got2) != 2 || got1[0] != ev {
		t.Errorf("deliveries: %v, %v", got1, got2)
	}
	if err := m.Publish(context.Background(), fanout.Event{Kind: "nope"}); err == nil {
		t.Error("an invalid event was published")
	}
	ctx, stop := context.WithCancel(context.Background())
	stop()
	if err := m.Publish(ctx, ev); !errors.Is(err, context.Canceled) {
		t.Errorf("Publish after ctx done = %v", err)
	}
	cancel2()
}
