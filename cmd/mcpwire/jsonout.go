package main

import (
	"io"

	json "github.com/goccy/go-json"
)

// writeJSON writes the report as one indented JSON document: package
// check's report, the command name aside.
func writeJSON(w io.Writer, rep *report) error {
	b, err := json.MarshalIndent(rep.Report, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
