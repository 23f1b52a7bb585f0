package db

// ScanPlansConnections counts the connections p keeps plans for.
func ScanPlansConnections(p *ScanPlans) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byConn)
}
