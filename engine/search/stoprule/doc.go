// Package stoprule is the one time manager's stop rule of the searches
// that grow a root by visits (engine/search's approach C, boardtree): when
// a search on the clock has thought enough, from its root's lead and the
// clock alone, so that a search it stops is repeated exactly from the
// iterations it ran.
package stoprule
