// Package sheet reads the rows of a table a person uploads: a CSV file
// (UTF-8, with or without a byte order mark, CRLF or LF line ends, quoted
// fields holding commas, quotes or line breaks) or an Excel workbook
// (.xlsx, its first sheet, read as a stream within bounds: xlsx.go). It
// knows formats only; what the columns mean is its caller's.
package sheet

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Errors of Read.
var (
	// ErrType is a file whose name ends neither in .csv nor in .xlsx.
	ErrType = errors.New("sheet: not a .csv or .xlsx file")
	// ErrUnreadable is a file of a known type whose content is not of it:
	// a CSV that is not UTF-8 text or has a broken quote, a workbook that
	// is not one.
	ErrUnreadable = errors.New("sheet: the file cannot be read")
	// ErrTooManyRows is a file of more rows than Read was allowed.
	ErrTooManyRows = errors.New("sheet: too many rows")
	// ErrTooLarge is a workbook that unpacks to more than its bounds
	// allow (MaxUnpacked, MaxRatio, MaxText): a zip bomb, or no table
	// of people.
	ErrTooLarge = errors.New("sheet: the workbook unpacks to too much")
)

// MaxColumns is the most cells of a row that Read returns: those right of
// it are left out, so that a row is never a sheet's width (16,384 cells,
// which a workbook names in a few bytes) but the columns a table of people
// has.
const MaxColumns = 64

// Row is a row of the file that is not blank.
type Row struct {
	// Number is where the row is in the file, counted from 1 as a
	// spreadsheet numbers its rows (for a CSV, the line its record starts
	// on).
	Number int
	Cells  []string
}

// Read returns the rows of the file named name holding data that are not
// blank (every cell empty or white space), at most maxRows of them: one
// more is ErrTooManyRows.
func Read(name string, data []byte, maxRows int) ([]Row, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return readCSV(data, maxRows)
	case ".xlsx":
		return readXLSX(data, maxRows)
	}
	return nil, ErrType
}

func readCSV(data []byte, maxRows int) ([]Row, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("%w: it is not UTF-8 text", ErrUnreadable)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1 // a short row is a row with empty cells
	r.ReuseRecord = false
	var rows []Row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
		}
		line, _ := r.FieldPos(0)
		if rows, err = add(rows, Row{Number: line, Cells: rec}, maxRows); err != nil {
			return nil, err
		}
	}
}

// add appends r to rows unless it is blank, refusing more than max; its
// cells past MaxColumns are left out.
func add(rows []Row, r Row, max int) ([]Row, error) {
	r.Cells = r.Cells[:min(len(r.Cells), MaxColumns)]
	for _, c := range r.Cells {
		if strings.TrimSpace(c) != "" {
			if len(rows) == max {
				return nil, ErrTooManyRows
			}
			return append(rows, r), nil
		}
	}
	return rows, nil
}
