module kriegbot

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/rs/zerolog v1.35.1
	github.com/ziutek/telnet v0.0.0-20180329124119-c3b780dc415b
	golang.org/x/crypto v0.58.0
	golang.org/x/time v0.16.0
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
