package main

import (
	"embed"
	"io/fs"

	"github.com/mcpwire/mcpwire/skill"
)

// skillFiles are the skills -skills serves: pdf-processing (the first
// listed, with a references/ directory, as the sep-2640-* server
// scenarios of the conformance suite want) and summarize.
//
//go:embed skills
var skillFiles embed.FS

// skillsExtension is the Skills extension serving skillFiles, with
// resources/directory/read.
func skillsExtension() (*skill.Set, error) {
	sub, err := fs.Sub(skillFiles, "skills")
	if err != nil {
		return nil, err
	}
	set := skill.NewSet(skill.Options{DirectoryRead: true})
	return set, set.AddFS(sub)
}
