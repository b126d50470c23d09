package main

import (
	"context"
	_ "embed"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/tool"
)

// calculatorHTML is the view -apps serves: a form that calls
// calculator_add through its host and shows the structured result.
//
//go:embed app/calculator.html
var calculatorHTML string

// calculatorView is the calculator's UI resource. It declares no CSP: a
// host gives it the extension's default, with no network at all.
var calculatorView = apps.Resource{
	URI: "ui://everything/calculator.html", Name: "calculator", Title: "Calculator",
	Description: "A form that adds two numbers with calculator_add.",
	HTML:        calculatorHTML,
	Meta:        apps.ResourceMeta{PrefersBorder: new(true)},
}

type calculatorArgs struct {
	A float64 `json:"a" description:"First addend."`
	B float64 `json:"b" description:"Second addend."`
}

type calculatorSum struct {
	A   float64 `json:"a"`
	B   float64 `json:"b"`
	Sum float64 `json:"sum"`
}

// addApp serves the calculator (-apps): its view, calculator (the
// model's and the view's: it opens the view on a first sum) and
// calculator_add (the view's alone).
func (srv *server) addApp() {
	if err := apps.Add(srv.Server, calculatorView); err != nil {
		panic(err) // the view is checked by the tests
	}
	add := func(_ context.Context, in calculatorArgs) (calculatorSum, error) {
		return calculatorSum{in.A, in.B, in.A + in.B}, nil
	}
	srv.MustAddTool(calculatorView.Link(tool.New("calculator",
		"Adds two numbers and shows them in an interactive calculator where the user can add more.", add,
		tool.WithTitle("Calculator"), tool.ReadOnly(true))))
	srv.MustAddTool(calculatorView.Link(tool.New("calculator_add",
		"Adds two numbers for the calculator's view.", add, tool.ReadOnly(true)), apps.VisibleToApp))
}
