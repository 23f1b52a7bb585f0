package db

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"weak"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// ScanPlans keeps pgx's scan plans for the rows of one kind of statement,
// per connection. rows.Scan plans each column afresh for every run of a
// statement (pgx keeps its plans only as long as one pgx.Rows), which for
// the feed page's 37 columns was a ninth of the API's CPU per page
// (cmd/bench -only feed -feed-cpuprofile). Plans are made by a
// connection's type map and used only on that connection, which serves one
// caller at a time, as pgx's own are. The zero value is ready to use.
//
// Connections are held weakly and forgotten when collected: a connection's
// state may be read only by the caller it serves, so asking the others
// whether they are closed would race with their callers.
type ScanPlans struct {
	mu     sync.Mutex
	byConn map[weak.Pointer[pgx.Conn]]*connPlans
}

// connPlans are the plans of one connection, a plan per column.
type connPlans struct {
	columns []plannedColumn
}

// Scanner scans the rows of one statement run with the plans of its
// connection.
type Scanner struct {
	rows  pgx.Rows
	plans *connPlans
}

// plannedColumn is a column's plan and what it was made for.
type plannedColumn struct {
	oid    uint32
	format int16
	target reflect.Type
	plan   pgtype.ScanPlan
}

// Rows returns the scanner of rows, whose statement must have run on a
// connection (a pool's rows have one).
func (p *ScanPlans) Rows(rows pgx.Rows) Scanner {
	conn := rows.Conn()
	key := weak.Make(conn)
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.byConn[key]
	if c == nil {
		if p.byConn == nil {
			p.byConn = map[weak.Pointer[pgx.Conn]]*connPlans{}
		}
		c = &connPlans{}
		p.byConn[key] = c
		runtime.AddCleanup(conn, p.forget, key)
	}
	return Scanner{rows, c}
}

// forget drops the plans of a connection that has been collected.
func (p *ScanPlans) forget(key weak.Pointer[pgx.Conn]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.byConn, key)
}

// Null reports whether the current row's column i is null.
func (s Scanner) Null(i int) bool {
	return s.rows.RawValues()[i] == nil
}

// Scan reads the current row into dest as rows.Scan does: one target per
// column, nil for a column to skip. A column whose type or target type
// differs from the one its plan was made for is planned again.
func (s Scanner) Scan(dest ...any) error {
	fields, values := s.rows.FieldDescriptions(), s.rows.RawValues()
	if len(dest) != len(fields) || len(values) != len(fields) {
		return fmt.Errorf("db: scan: %d targets for %d columns", len(dest), len(fields))
	}
	if len(s.plans.columns) != len(fields) {
		s.plans.columns = make([]plannedColumn, len(fields))
	}
	m := s.rows.Conn().TypeMap()
	for i, target := range dest {
		if target == nil {
			continue
		}
		f, c := &fields[i], &s.plans.columns[i]
		if t := reflect.TypeOf(target); c.plan == nil || c.oid != f.DataTypeOID || c.format != f.Format || c.target != t {
			*c = plannedColumn{f.DataTypeOID, f.Format, t, m.PlanScan(f.DataTypeOID, f.Format, target)}
		}
		if err := c.plan.Scan(values[i], target); err != nil {
			return pgx.ScanArgError{ColumnIndex: i, FieldName: f.Name, Err: err}
		}
	}
	return nil
}
