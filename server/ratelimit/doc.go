// Package ratelimit is the servers' one token bucket over
// golang.org/x/time/rate: a bucket full at first, and one request spent
// from it at a given time, with the wait for the next one (for a
// Retry-After). The HTTP door limits addresses and tokens with it, the
// telnet door the TD commands of a client.
package ratelimit
