package sheet

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"path"
	"strconv"
	"strings"
)

// A workbook is a zip of XML parts, and a few hundred kilobytes of it may
// unpack to gigabytes (a zip bomb). So a workbook is read as a stream, part
// by part and token by token, never a whole part in memory, and refused
// with ErrTooLarge as soon as what it unpacks to passes one of these
// bounds. Only the parts that name the first sheet, its shared strings and
// the sheet itself are read.
const (
	// MaxUnpacked is the most bytes the parts read may unpack to in all:
	// the XML of ten thousand rows of people, several times over.
	MaxUnpacked = 32 << 20
	// MaxRatio is how many times its packed size a part may unpack to
	// once past ratioGrace (Apache POI's default bound, 1 to 100):
	// spreadsheet XML packs to a tenth or a twentieth.
	MaxRatio   = 100
	ratioGrace = 1 << 20
	// MaxText is the longest run of a part between two tags (a cell's
	// text, a tag with its attributes), which the XML decoder holds at
	// once.
	MaxText = 64 << 10
)

// The package's relationship types, by their last segment (transitional
// and strict OOXML differ in the rest).
const (
	relOfficeDocument = "/officeDocument"
	relSharedStrings  = "/sharedStrings"
)

// workbook reads the parts of one zip under one budget of unpacked bytes.
type workbook struct {
	parts  map[string]*zip.File
	budget int64
}

func readXLSX(data []byte, maxRows int) ([]Row, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	w := &workbook{parts: make(map[string]*zip.File, len(zr.File)), budget: MaxUnpacked}
	for _, f := range zr.File {
		// Part names are case-insensitive (ECMA-376 part 2, §6.2.2.3).
		w.parts[strings.ToLower(f.Name)] = f
	}
	sheetPart, stringsPart, err := w.locate()
	if err != nil {
		return nil, err
	}
	var shared sharedStrings
	if stringsPart != "" {
		if shared, err = w.sharedStrings(stringsPart); err != nil {
			return nil, err
		}
	}
	return w.rows(sheetPart, shared, maxRows)
}

// open is a decoder over the part named name, within the bounds.
func (w *workbook) open(name string) (*xml.Decoder, io.Closer, error) {
	f, ok := w.parts[strings.ToLower(name)]
	if !ok {
		return nil, nil, fmt.Errorf("%w: the workbook has no part %s", ErrUnreadable, name)
	}
	// The sizes the zip declares are checked first, then the bytes as
	// they come: the part is unpacked here rather than by archive/zip so
	// that its ratio counts the packed bytes it really took.
	if f.UncompressedSize64 > uint64(w.budget) || f.UncompressedSize64 > ratioGrace && f.UncompressedSize64/MaxRatio > f.CompressedSize64 {
		return nil, nil, tooLarge(name)
	}
	raw, err := f.OpenRaw()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, name, err)
	}
	packed := &counter{r: raw}
	g := &guard{w: w, name: name, packed: packed, want: f.UncompressedSize64, crc: f.CRC32, sum: crc32.NewIEEE()}
	var c io.Closer = io.NopCloser(nil)
	switch f.Method {
	case zip.Store:
		g.r = packed
	case zip.Deflate:
		fr := flate.NewReader(packed)
		g.r, c = fr, fr
	default:
		return nil, nil, fmt.Errorf("%w: %s is packed with method %d", ErrUnreadable, name, f.Method)
	}
	d := xml.NewDecoder(g)
	// Excel writes its parts in UTF-8; one in another charset is not a
	// workbook Read knows.
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("%w: %s is in %s", ErrUnreadable, name, label)
	}
	return d, c, nil
}

// tooLarge is ErrTooLarge for the part name.
func tooLarge(name string) error {
	return fmt.Errorf("%w: %s unpacks to more than %d MiB, or more than %d times its size", ErrTooLarge, name, MaxUnpacked>>20, MaxRatio)
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n uint64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += uint64(n)
	return n, err
}

// guard counts what a part unpacks to against the workbook's budget, the
// packed bytes it took and the longest run between two tags, and checks
// it against the size and checksum the zip declares.
type guard struct {
	r      io.Reader
	w      *workbook
	name   string
	packed *counter
	want   uint64
	crc    uint32
	sum    hash.Hash32
	read   uint64
	run    int
}

func (g *guard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.read += uint64(n)
	g.w.budget -= int64(n)
	if g.w.budget < 0 || g.read > ratioGrace && g.read/MaxRatio > g.packed.n {
		return 0, tooLarge(g.name)
	}
	if g.read > g.want {
		return 0, fmt.Errorf("%w: %s unpacks to more than it declares", ErrUnreadable, g.name)
	}
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			g.run += len(b)
			break
		}
		g.run += i
		if g.run > MaxText {
			break
		}
		g.run, b = 0, b[i+1:]
	}
	if g.run > MaxText {
		return 0, fmt.Errorf("%w: %s holds a text or tag of more than %d KiB", ErrTooLarge, g.name, MaxText>>10)
	}
	g.sum.Write(p[:n])
	if errors.Is(err, io.EOF) && (g.read != g.want || g.sum.Sum32() != g.crc) {
		return 0, fmt.Errorf("%w: %s is damaged", ErrUnreadable, g.name)
	}
	return n, err
}

// next is the decoder's next token; a part that ends before its element
// does is unreadable, an error of the guard is itself.
func next(d *xml.Decoder, name string) (xml.Token, error) {
	t, err := d.Token()
	if err == nil || errors.Is(err, io.EOF) {
		return t, err
	}
	if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrUnreadable) {
		return nil, err
	}
	return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, name, err)
}

// relationship is one entry of a .rels part.
type relationship struct{ id, typ, target string }

// relationships reads the .rels part of the part named source ("" for
// the package's own), its targets resolved to part names; a missing one
// has none.
func (w *workbook) relationships(source string) ([]relationship, error) {
	dir, file := path.Split(source)
	name := dir + "_rels/" + file + ".rels"
	if _, ok := w.parts[strings.ToLower(name)]; !ok {
		return nil, nil
	}
	d, c, err := w.open(name)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var out []relationship
	for {
		t, err := next(d, name)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "Relationship" {
			r := relationship{id: attr(s, "Id"), typ: attr(s, "Type"), target: attr(s, "Target")}
			if strings.HasPrefix(r.target, "/") {
				r.target = strings.TrimPrefix(r.target, "/")
			} else {
				r.target = path.Join(dir, r.target)
			}
			out = append(out, r)
		}
	}
}

// attr is the value of s's attribute local, of no namespace.
func attr(s xml.StartElement, local string) string {
	for _, a := range s.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

// locate finds the workbook's first sheet and its shared strings ("" when
// it has none) by the package's relationships.
func (w *workbook) locate() (sheetPart, stringsPart string, err error) {
	rels, err := w.relationships("")
	if err != nil {
		return "", "", err
	}
	book := ""
	for _, r := range rels {
		if strings.HasSuffix(r.typ, relOfficeDocument) {
			book = r.target
		}
	}
	if book == "" {
		return "", "", fmt.Errorf("%w: the file names no workbook", ErrUnreadable)
	}
	if rels, err = w.relationships(book); err != nil {
		return "", "", err
	}
	d, c, err := w.open(book)
	if err != nil {
		return "", "", err
	}
	defer c.Close()
	first := ""
	for first == "" {
		t, err := next(d, book)
		if errors.Is(err, io.EOF) {
			return "", "", fmt.Errorf("%w: the workbook has no sheet", ErrUnreadable)
		}
		if err != nil {
			return "", "", err
		}
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "sheet" {
			// r:id, in the relationships' namespace (whichever prefix).
			for _, a := range s.Attr {
				if a.Name.Local == "id" && a.Name.Space != "" {
					first = a.Value
				}
			}
			if first == "" {
				return "", "", fmt.Errorf("%w: the workbook's first sheet has no relationship", ErrUnreadable)
			}
		}
	}
	for _, r := range rels {
		if r.id == first {
			sheetPart = r.target
		}
		if strings.HasSuffix(r.typ, relSharedStrings) {
			stringsPart = r.target
		}
	}
	if sheetPart == "" {
		return "", "", fmt.Errorf("%w: the workbook's first sheet is not in it", ErrUnreadable)
	}
	return sheetPart, stringsPart, nil
}

// sharedStrings is the workbook's table of strings, in one string: the
// i-th ends at ends[i], so that a table of many short strings costs four
// bytes each beside its text.
type sharedStrings struct {
	text string
	ends []uint32
}

func (s sharedStrings) at(i int) (string, bool) {
	if i < 0 || i >= len(s.ends) {
		return "", false
	}
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text[start:s.ends[i]], true
}

// sharedStrings reads the table of the part named name: each <si>'s text,
// its runs' <t> joined, its phonetic guides (<rPh>) left out.
func (w *workbook) sharedStrings(name string) (sharedStrings, error) {
	d, c, err := w.open(name)
	if err != nil {
		return sharedStrings{}, err
	}
	defer c.Close()
	var b strings.Builder
	var ends []uint32
	inT, phonetic := false, 0
	for {
		t, err := next(d, name)
		if errors.Is(err, io.EOF) {
			return sharedStrings{text: b.String(), ends: ends}, nil
		}
		if err != nil {
			return sharedStrings{}, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "t":
				inT = phonetic == 0
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inT = false
			case "rPh":
				phonetic--
			case "si":
				ends = append(ends, uint32(b.Len()))
			}
		case xml.CharData:
			if inT {
				b.Write(t)
			}
		}
	}
}

// cell is the cell being read.
type cell struct {
	col   int // from 1
	typ   string
	value strings.Builder
}

// rows reads the rows of the sheet part name, each cell's value as the
// sheet stores it (a shared string, an inline string, a number as
// written, TRUE or FALSE).
func (w *workbook) rows(name string, shared sharedStrings, maxRows int) ([]Row, error) {
	d, c, err := w.open(name)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var (
		rows          []Row
		row           *Row
		last          int // the last row's number
		cur           *cell
		inV, inInline bool
		phonetic      int
	)
	for {
		t, err := next(d, name)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				n := last + 1
				if r := attr(t, "r"); r != "" {
					if n, err = strconv.Atoi(r); err != nil || n <= last {
						return nil, fmt.Errorf("%w: %s: a row numbered %q after row %d", ErrUnreadable, name, r, last)
					}
				}
				row, last = &Row{Number: n}, n
			case "c":
				if row == nil {
					continue // not a cell of the table
				}
				col := len(row.Cells) + 1
				if r := attr(t, "r"); r != "" {
					if col = column(r); col == 0 {
						return nil, fmt.Errorf("%w: %s: a cell at %q", ErrUnreadable, name, r)
					}
				}
				cur = &cell{col: col, typ: attr(t, "t")}
			case "v":
				inV = cur != nil
			case "t":
				inInline = cur != nil && phonetic == 0
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "v":
				inV = false
			case "t":
				inInline = false
			case "rPh":
				phonetic--
			case "c":
				if cur == nil || row == nil {
					continue
				}
				v, err := cur.resolve(shared)
				if err != nil {
					return nil, fmt.Errorf("%w: %s: row %d: %v", ErrUnreadable, name, row.Number, err)
				}
				if cur.col <= MaxColumns {
					for len(row.Cells) < cur.col-1 {
						row.Cells = append(row.Cells, "")
					}
					if len(row.Cells) < cur.col {
						row.Cells = append(row.Cells, v)
					}
				}
				cur = nil
			case "row":
				if row == nil {
					continue
				}
				if rows, err = add(rows, *row, maxRows); err != nil {
					return nil, err
				}
				row = nil
			}
		case xml.CharData:
			if inV || inInline {
				cur.value.Write(t)
			}
		}
	}
}

// resolve is the cell's value by its type.
func (c *cell) resolve(shared sharedStrings) (string, error) {
	v := c.value.String()
	switch c.typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return "", fmt.Errorf("a shared string %q", v)
		}
		s, ok := shared.at(i)
		if !ok {
			return "", fmt.Errorf("shared string %d of %d", i, len(shared.ends))
		}
		return s, nil
	case "b":
		if strings.TrimSpace(v) == "1" {
			return "TRUE", nil
		}
		return "FALSE", nil
	}
	return v, nil // inlineStr, str, n, e, d: the text as written
}

// column is the column of a cell reference ("B12": 2), 0 when it is not
// one.
func column(ref string) int {
	col := 0
	for i, r := range ref {
		switch {
		case r >= 'A' && r <= 'Z':
			col = col*26 + int(r-'A'+1)
		case r >= 'a' && r <= 'z':
			col = col*26 + int(r-'a'+1)
		case r >= '0' && r <= '9' && i > 0:
			return col
		default:
			return 0
		}
		if col > 16384 { // XFD, a sheet's last column
			return 0
		}
	}
	return 0
}
