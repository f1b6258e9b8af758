package tourney

import "encoding/json"

// eventAlias has Event's fields without its methods (no recursion).
type eventAlias Event

// eventJSON adds the unexported state to the exported fields.
type eventJSON struct {
	*eventAlias
	Started  bool      `json:"started"`
	Requests []request `json:"requests,omitempty"`
}

// MarshalJSON saves the whole event, including the byes asked for the
// next round, so that a TD can stop and resume it (enumerations are
// written as their numbers).
func (e *Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(eventJSON{(*eventAlias)(e), e.started, e.requests})
}

// UnmarshalJSON restores an event written by MarshalJSON.
func (e *Event) UnmarshalJSON(b []byte) error {
	v := eventJSON{eventAlias: (*eventAlias)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	e.started, e.requests = v.Started, v.Requests
	return nil
}
