package tourney

import (
	"encoding/json"
	"reflect"
	"testing"
)

// An event saved between rounds and restored pairs the same next rounds.
func TestEventJSONRoundTrip(t *testing.T) {
	e := field(t, Swiss, 7, 4)
	mustPairAny(t, e)
	results(t, e, WhiteWins, Draw, BlackWins)
	if err := e.RequestBye("p2"); err != nil {
		t.Fatal(err)
	}
	if err := e.Withdraw("p7"); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e, &back) {
		t.Fatalf("restored event differs:\n%+v\n%+v", e, &back)
	}
	r1, err1 := e.PairNext()
	r2, err2 := back.PairNext()
	if err1 != nil || err2 != nil || !reflect.DeepEqual(r1, r2) {
		t.Fatalf("next rounds differ: %+v %v / %+v %v", r1, err1, r2, err2)
	}
	if err := json.Unmarshal([]byte(`{"Players": 3}`), &back); err == nil {
		t.Error("bad JSON accepted")
	}
}
