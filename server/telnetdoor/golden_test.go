package telnetdoor

import "flag"

var update = flag.Bool("update", false, "rewrite the golden files of the transcript tests")
