package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// fakeAPI is the to-do API the tests wrap: GET and POST /todos, in memory.
func fakeAPI(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	todos := []todo{{ID: 1, Title: "water the plants", Done: true}, {ID: 2, Title: "call the bank"}}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path != "/todos":
			http.NotFound(w, r)
		case r.Method == http.MethodGet:
			json.NewEncoder(w).Encode(todos)
		case r.Method == http.MethodPost && r.Header.Get("Content-Type") == "application/json":
			var in addArgs
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Title == "" {
				http.Error(w, `{"error":"a title is required"}`, http.StatusBadRequest)
				return
			}
			todos = append(todos, todo{ID: len(todos) + 1, Title: in.Title})
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(todos[len(todos)-1])
		default:
			http.Error(w, `{"error":"method not allowed"}`, http.StatusMethodNotAllowed)
		}
	}))
	t.Cleanup(api.Close)
	return api
}

// failingAPI is a to-do API down for maintenance: every request gets 503.
func failingAPI(t *testing.T) *httptest.Server {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}))
	t.Cleanup(api.Close)
	return api
}
