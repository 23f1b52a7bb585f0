package httpapi

import (
	"sync"

	"github.com/gofiber/fiber/v3"
)

// appendedBuffers are the buffers answers written by an AppendJSON are
// built in, reused: the body is copied into the response's own (pooled)
// buffer, so neither a new buffer nor its growth is paid per answer.
var appendedBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// maxKeptBuffer bounds what the pool keeps, so that one large answer does
// not hold its buffer for good.
const maxKeptBuffer = 1 << 20

// sendAppended answers with the JSON appendJSON writes, as c.JSON would
// answer with the value's encoding/json form: for answers whose type
// writes its own (query/feed.ThreadPage.AppendJSON).
func sendAppended(c fiber.Ctx, appendJSON func([]byte) ([]byte, error)) error {
	bp := appendedBuffers.Get().(*[]byte)
	b, err := appendJSON((*bp)[:0])
	if err == nil {
		c.Response().SetBody(b)
		c.Response().Header.SetContentType(fiber.MIMEApplicationJSONCharsetUTF8)
	}
	if cap(b) <= maxKeptBuffer {
		*bp = b[:0]
		appendedBuffers.Put(bp)
	}
	return err
}
