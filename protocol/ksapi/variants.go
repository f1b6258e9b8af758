package ksapi

import (
	"slices"

	"kriegbot/engine/umpire"
)

// RuleVariants returns the site's rule variant names: the umpire's list
// (engine/umpire.Variants), which is the one list of them.
func RuleVariants() []string { return umpire.VariantNames() }

// IsRuleVariant reports whether v is one of the site's variant names, as
// the site spells it (lower case).
func IsRuleVariant(v string) bool { return slices.Contains(umpire.VariantNames(), v) }
