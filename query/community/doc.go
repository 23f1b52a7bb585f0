// Package community is the read side of communities and their forums: what
// a member's home page lists.
package community
