package check

// rejected counts the tools, items and server problems refused.
func (r *Report) rejected() int {
	n := len(r.Problems)
	for _, l := range Lists {
		n += r.Refused(l)
	}
	return n
}

// Called returns the number of tools called.
func (r *Report) Called() int {
	n := 0
	for _, t := range r.Tools {
		if t.Called {
			n++
		}
	}
	return n
}

// Count returns the number of items of list l listed.
func (r *Report) Count(l List) int {
	switch l {
	case ToolList:
		return len(r.Tools)
	case ResourceList:
		return len(r.Resources)
	case TemplateList:
		return len(r.ResourceTemplates)
	}
	return len(r.Prompts)
}

// Refused returns the number of items of list l refused.
func (r *Report) Refused(l List) int {
	n := 0
	if l == ToolList {
		for _, t := range r.Tools {
			if !t.Admitted {
				n++
			}
		}
		return n
	}
	for _, it := range r.items(l) {
		if !it.Admitted {
			n++
		}
	}
	return n
}

// items returns the reports of a list other than tools.
func (r *Report) items(l List) []*ItemReport {
	switch l {
	case ResourceList:
		return r.Resources
	case TemplateList:
		return r.ResourceTemplates
	case PromptList:
		return r.Prompts
	}
	return nil
}
