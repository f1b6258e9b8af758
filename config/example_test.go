package config_test

import (
	"fmt"

	"kriegbot/config"
)

func ExampleParse() {
	_, err := config.Parse([]byte(`
[policy]
max_games = 0
max_game = 2

[engine]
move_overhead = "300"
`), "config.toml")
	fmt.Println(err)
	// Output:
	// config.toml:3: policy.max_games: must be 1-16, got 0
	// config.toml:4: policy.max_game: unknown key (did you mean max_games?)
	// config.toml:7: engine.move_overhead: duration "300" has no unit: write e.g. "300ms" or "300s"
}

func ExampleConfig_Set() {
	c := config.Defaults()
	fmt.Println(c.Set("policy.max_games", "2"), c.Policy.MaxGames)
	fmt.Println(c.Set("policy.max_games", "99"), c.Policy.MaxGames)
	fmt.Println(c.Set("account.handle", "someoneelse") != nil)
	// Output:
	// <nil> 2
	// policy.max_games: must be 1-16, got 99 2
	// true
}
