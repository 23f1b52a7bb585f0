package embedcache

// SetLimit sets the most bytes a shard of c may reach, so that a test
// can fill one without writing MaxBytes.
func SetLimit(c *Cache, bytes int64) { c.limit = bytes }
