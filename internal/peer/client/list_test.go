package client

import (
	"errors"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// pager answers tools/list by the cursor it gets: next maps a cursor
// ("none" for none) to the raw page.
func pager(next map[string]string) script {
	return modern(func(p *peer, m jsonrpc.Message) {
		r := m.(*jsonrpc.Request)
		var params struct {
			Cursor *string `json:"cursor"`
		}
		json.Unmarshal(r.Params, &params)
		key := "none"
		if params.Cursor != nil {
			key = *params.Cursor
		}
		page, ok := next[key]
		if !ok {
			p.fail(r.ID, -32602, `{"cursor":"`+key+`"}`)
			return
		}
		p.result(r.ID, page)
	})
}

func TestListPages(t *testing.T) {
	tests := []struct {
		name    string
		pages   map[string]string
		want    int      // pages returned
		cursors []string // cursors sent, "none" for the first page
		err     error
	}{
		{name: "empty cursor is a real cursor", pages: map[string]string{
			"none": `{"tools":[{"name":"a"}],"nextCursor":""}`,
			"":     `{"tools":[{"name":"b"}],"nextCursor":"x"}`,
			"x":    `{"tools":[{"name":"c"}]}`,
		}, want: 3, cursors: []string{"none", "", "x"}},
		{name: "null nextCursor ends the list", pages: map[string]string{"none": `{"tools":[],"nextCursor":null}`},
			want: 1, cursors: []string{"none"}},
		{name: "a refused page", pages: map[string]string{"none": `{"tools":[],"nextCursor":"gone"}`},
			want: 1, cursors: []string{"none", "gone"}, err: jsonrpc.ErrInvalidParams},
		{name: "a cursor that is not a string", pages: map[string]string{"none": `{"tools":[],"nextCursor":5}`},
			want: 1, cursors: []string{"none"}, err: ErrBadAnswer},
		{name: "a page that is not an object", pages: map[string]string{"none": `[]`},
			want: 1, cursors: []string{"none"}, err: ErrBadAnswer},
		{name: "a cursor that never ends", pages: map[string]string{"none": `{"tools":[],"nextCursor":"again"}`, "again": `{"tools":[],"nextCursor":"again"}`},
			want: MaxPages, err: ErrTooManyPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sess, p := connect(t, pager(tt.pages), Options{})
			pages, err := sess.ListPages(bounded(t), "tools/list")
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("ListPages: %v, want %v", err, tt.err)
			}
			if len(pages) != tt.want {
				t.Errorf("%d pages, want %d", len(pages), tt.want)
			}
			if tt.cursors == nil {
				return
			}
			var sent []string
			for _, r := range p.requests("tools/list") {
				var params struct {
					Cursor *string `json:"cursor"`
				}
				json.Unmarshal(r.Params, &params)
				if params.Cursor == nil {
					sent = append(sent, "none")
				} else {
					sent = append(sent, *params.Cursor)
				}
			}
			if len(sent) != len(tt.cursors) {
				t.Fatalf("cursors sent %q, want %q", sent, tt.cursors)
			}
			for i := range sent {
				if sent[i] != tt.cursors[i] {
					t.Errorf("cursors sent %q, want %q", sent, tt.cursors)
				}
			}
		})
	}
}
