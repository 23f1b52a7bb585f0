// Package community is the read side of communities and their forums: the
// lists of the home page and of the Manage Communities dialog, one
// community, and its people. Who reads and who manages a community is
// internal/rules/access's CommunityRules, applied in the statements.
package community
