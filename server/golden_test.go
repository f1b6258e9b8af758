package server

import "flag"

var update = flag.Bool("update", false, "rewrite the golden files of the transcript tests")
