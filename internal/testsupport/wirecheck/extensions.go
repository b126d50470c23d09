package wirecheck

import "github.com/mcpwire/mcpwire/protocol"

// Results the schema of a revision does not define because an extension
// does: the tasks extension (io.modelcontextprotocol/tasks, SEP-2663) of
// 2026-07-28 answers tasks/get, tasks/update and tasks/cancel, and may
// answer tools/call with a CreateTaskResult (resultType "task"). Such a
// result is checked as the schema's base Result only (an object whose
// resultType and _meta, when present, are well-formed).

// tasksRevision is the revision whose tasks extension this file knows.
var tasksRevision = protocol.Revision20260728.String()

// extensionMethods are the request methods extensions add, by revision.
var extensionMethods = map[string]map[string]bool{
	tasksRevision: {"tasks/get": true, "tasks/update": true, "tasks/cancel": true},
}

// extensionResult reports whether the result of a request method is an
// extension's rather than the schema's.
func extensionResult(rev, method string, result any) bool {
	if extensionMethods[rev][method] {
		return true
	}
	res, _ := result.(map[string]any)
	return rev == tasksRevision && method == "tools/call" && res["resultType"] == "task"
}

// extensionNotifications are the notifications extensions add, by
// revision: the tasks extension's status notification on listen streams.
// Only their JSON-RPC envelope is checked.
var extensionNotifications = map[string]map[string]bool{
	tasksRevision: {"notifications/tasks": true},
}

// extensionMembers checks and removes the members extensions add to a
// notification the schema defines, so that the schema checks the rest:
// in 2026-07-28, the tasks extension's params.notifications.taskIds of a
// listen stream's acknowledgement (an array of task id strings).
func extensionMembers(rev, method string, obj map[string]any) []Problem {
	if rev != tasksRevision || method != "notifications/subscriptions/acknowledged" {
		return nil
	}
	params, _ := obj["params"].(map[string]any)
	filter, _ := params["notifications"].(map[string]any)
	ids, ok := filter["taskIds"]
	if !ok {
		return nil
	}
	delete(filter, "taskIds")
	list, isList := ids.([]any)
	for _, id := range list {
		if _, isString := id.(string); !isString {
			isList = false
		}
	}
	if !isList {
		return []Problem{{Pointer: "/params/notifications/taskIds", Message: "the tasks extension's taskIds must be an array of task id strings"}}
	}
	return nil
}
