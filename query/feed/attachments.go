package feed

import "agora/internal/rules/message"

// SignAttachments replaces the stored image and file of p with what its
// readers get: each with a freshly signed URL (message.Shown).
func (q *Queries) SignAttachments(p *Post) error {
	var err error
	p.Image, p.File, err = message.Shown(q.links, p.Image, p.File)
	return err
}
