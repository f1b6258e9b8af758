package kshttp

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"kriegbot/protocol/ksapi"
)

// The door's answers: JSON replies and the site's error shapes, and the
// reading of request bodies into ksapi's types.

// Error is an answer other than 2xx: the game routes' error envelope
// when Code is set, else FastAPI's {"detail": ...}; Retry, when set,
// becomes Retry-After.
type Error struct {
	Status int
	Code   string // game routes: the error envelope's code; "" for {"detail": ...}
	Msg    string
	Detail any // the FastAPI-style detail, when Code is ""
	Retry  time.Duration
}

// GameError is an error of the game routes, in their envelope.
func GameError(status int, code, msg string) *Error {
	return &Error{Status: status, Code: code, Msg: msg}
}

// DetailError is an error in FastAPI's {"detail": ...} shape.
func DetailError(status int, detail any) *Error { return &Error{Status: status, Detail: detail} }

// AuthError is the 401 of a request without a valid token.
func AuthError() *Error { return DetailError(401, "Authentication required") }

// Invalid is a 422 answer in FastAPI's shape.
func Invalid(field, msg string) *Error {
	loc := []string{"body"}
	if field != "" {
		loc = append(loc, field)
	}
	return DetailError(422, []ksapi.Invalid{{Type: "value_error", Loc: loc, Msg: msg}})
}

// queryInvalid is a 422 answer on a query parameter, in FastAPI's shape.
func queryInvalid(param, msg string) *Error {
	return DetailError(422, []ksapi.Invalid{{Type: "int_parsing", Loc: []string{"query", param}, Msg: msg}})
}

// WriteJSON writes v as the answer, with its length.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = 500, []byte(`{"detail":"Internal Server Error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// WriteError writes e as the answer.
func WriteError(w http.ResponseWriter, e *Error) {
	if e.Retry > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.Retry.Seconds()))))
	}
	if e.Code != "" {
		WriteJSON(w, e.Status, ksapi.NewGameError(e.Code, e.Msg))
		return
	}
	WriteJSON(w, e.Status, ksapi.Detail{Detail: e.Detail})
}

// DecodeBody reads a JSON object body into v: a body over the limit of
// its http.MaxBytesReader is a 413; one not JSON, not one value, or of
// the wrong shape is a 422.
func DecodeBody(r *http.Request, v any) *Error {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return DetailError(413, "Request body too large")
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return Invalid(typeErr.Field, "wrong type")
		}
		return Invalid("", "JSON decode error")
	}
	if dec.More() {
		return Invalid("", "JSON decode error: trailing data")
	}
	return nil
}
