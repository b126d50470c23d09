package client

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// ListPages calls a list method (tools/list, resources/list,
// resources/templates/list, prompts/list) from the first page to the last
// and returns each page's result as the server wrote it. It follows
// nextCursor until the member is absent: "" is a real cursor, sent back
// like any other, and so is a cursor the server repeats; MaxPages bounds
// the pages. A page the server refused ends the list with its
// *jsonrpc.Error in the error chain; the pages before it are returned too.
func (s *Session) ListPages(ctx context.Context, method string) ([]json.RawMessage, error) {
	var pages []json.RawMessage
	var params json.RawMessage // the first page: no cursor
	for len(pages) < MaxPages {
		result, rpcErr, err := s.Call(ctx, method, params)
		if err != nil {
			return pages, err
		}
		if rpcErr != nil {
			return pages, fmt.Errorf("client: %s, page %d: %w", method, len(pages)+1, rpcErr)
		}
		pages = append(pages, result)
		next, err := nextCursor(result)
		if err != nil {
			return pages, fmt.Errorf("client: %s, page %d: %w", method, len(pages), err)
		}
		if next == nil {
			return pages, nil
		}
		params = json.RawMessage(`{"cursor":` + string(next) + `}`)
	}
	return pages, fmt.Errorf("%w: %s had more than %d", ErrTooManyPages, method, MaxPages)
}

// nextCursor returns a page's nextCursor token as written, nil when the
// member is absent or null.
func nextCursor(page json.RawMessage) (json.RawMessage, error) {
	f, err := jsonx.Fields(page, "nextCursor")
	if err != nil {
		return nil, fmt.Errorf("%w: the page is not an object", ErrBadAnswer)
	}
	switch c := f[0]; {
	case c == nil || string(c) == "null":
		return nil, nil
	case jsonx.FirstByte(c) != '"':
		return nil, fmt.Errorf("%w: nextCursor is not a string", ErrBadAnswer)
	default:
		return c, nil
	}
}
