package probe

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

func TestFlagIn(t *testing.T) {
	tests := []struct {
		meta string
		want request
	}{
		{``, notProbe},
		{`{}`, notProbe},
		{`{"progressToken":1}`, notProbe},
		{`{"forge.permission_patterns":true}`, isProbe},
		{`{ "progressToken" : 7 , "forge.permission_patterns" : true }`, isProbe},
		{`{"forge.permission_patterns":false}`, notProbe},
		{`{"forge.permission_patterns":null}`, badFlag},
		{`{"forge.permission_patterns":"true"}`, badFlag},
		{`{"forge.permission_patterns":1}`, badFlag},
		{`{"forge.permission_patterns":{}}`, badFlag},
		{`{"forge\u002epermission_patterns":true}`, isProbe},
		{`{"Forge.Permission_Patterns":true}`, notProbe},
		{`{"other":{"forge.permission_patterns":true}}`, notProbe},
		{`{"note":"forge.permission_patterns"}`, notProbe},
		{`[true]`, notProbe},
	}
	for _, tt := range tests {
		t.Run(tt.meta, func(t *testing.T) {
			if got := flagIn(json.RawMessage(tt.meta)); got != tt.want {
				t.Errorf("flagIn(%s) = %v, want %v", tt.meta, got, tt.want)
			}
		})
	}
}

func TestIsProbe(t *testing.T) {
	if IsProbe(context.Background()) {
		t.Error("IsProbe outside a call = true")
	}
	ctx := tool.WithRequest(context.Background(), &tool.RequestInfo{Meta: json.RawMessage(`{"forge.permission_patterns":true}`)})
	if !IsProbe(ctx) {
		t.Error("IsProbe of a probe = false")
	}
	ctx = tool.WithRequest(context.Background(), &tool.RequestInfo{Meta: json.RawMessage(`{"forge.permission_patterns":"yes"}`)})
	if IsProbe(ctx) {
		t.Error(`IsProbe of "yes" = true`)
	}
}
