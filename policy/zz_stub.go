package policy

import "regexp"

// TEMPORARY: replaced by the numbers branch.

const DefaultMaxPatternSize = 1000

func compilePattern(expr string, max int) (*regexp.Regexp, error) { return regexp.Compile(expr) }
