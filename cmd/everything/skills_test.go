package main

import "testing"

// The embedded skills pass the Set's checks (a skill that broke a rule
// would stop -skills at start).
func TestSkillsEmbedded(t *testing.T) {
	set, err := skillsExtension()
	if err != nil {
		t.Fatal(err)
	}
	if ext := set.Extension(); len(ext.Methods) != 3 {
		t.Errorf("the extension has %d methods; want skills/list, skills/get and resources/directory/read", len(ext.Methods))
	}
}
