package ksapi

import "testing"

func TestRuleVariants(t *testing.T) {
	all := RuleVariants()
	if len(all) != 7 { // the site has seven
		t.Fatalf("%d variants: %v", len(all), all)
	}
	for _, v := range all {
		if !IsRuleVariant(v) {
			t.Errorf("%q not a variant", v)
		}
	}
	for _, v := range []string{"", "Wild16", "wild 16", "berkeley-any", "chess"} {
		if IsRuleVariant(v) {
			t.Errorf("%q taken for a variant", v)
		}
	}
	all[0] = "x" // a copy: the list itself stays
	if !IsRuleVariant("berkeley") {
		t.Error("RuleVariants returned the list itself")
	}
}
