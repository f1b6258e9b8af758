package ksapi

import "slices"

// NumRuleVariants is how many rule variants the site has.
const NumRuleVariants = 7

// ruleVariants are the site's rule variants, as it names them, in the
// order its registration form lists them.
func ruleVariants() [NumRuleVariants]string {
	return [...]string{"berkeley", "berkeley_any", "cincinnati", "wild16", "rand", "english", "crazykrieg"}
}

// RuleVariants returns the site's rule variant names.
func RuleVariants() []string {
	all := ruleVariants()
	return all[:]
}

// IsRuleVariant reports whether v is one of the site's variant names.
func IsRuleVariant(v string) bool {
	all := ruleVariants()
	return slices.Contains(all[:], v)
}
