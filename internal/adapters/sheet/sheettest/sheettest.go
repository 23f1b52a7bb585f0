// Package sheettest makes the hostile workbooks that internal/adapters/sheet must
// refuse, for its tests, the member import's and the security probe's.
package sheettest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
)

// Bomb is Workbook with a cell of cellBytes letters A: a file some 800
// times smaller (a 200 MiB cell packs to 258 KB), which unpacks to it.
func Bomb(cellBytes int) []byte {
	return Workbook(io.LimitReader(letterA{}, int64(cellBytes)))
}

type letterA struct{}

func (letterA) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'A'
	}
	return len(p), nil
}

// Workbook is a well-formed .xlsx workbook whose first sheet holds a
// header row (firstName, lastName, email) and a row whose first cell is
// one shared string, the text of cell (XML-safe), whose last name is
// "lastName" and whose address is bomb@example.test.
func Workbook(cell io.Reader) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	// The fastest level packs a run of one letter nearly as far as the
	// best (814 to 1 against 1,028 to 1), five times sooner.
	z.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	part := func(name, text string) {
		w, err := z.Create(name)
		if err == nil {
			_, err = w.Write([]byte(text))
		}
		if err != nil {
			panic(err) // writing to memory does not fail
		}
	}
	part("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`)
	part("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	part("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	part("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`)
	part("xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="s"><v>4</v></c></row></sheetData></worksheet>`)
	w, err := z.Create("xl/sharedStrings.xml")
	if err != nil {
		panic(err)
	}
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="5" uniqueCount="5"><si><t>firstName</t></si><si><t>lastName</t></si><si><t>email</t></si><si><t>`)
	if _, err := io.Copy(w, cell); err != nil {
		panic(err)
	}
	fmt.Fprint(w, `</t></si><si><t>bomb@example.test</t></si></sst>`)
	if err := z.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}
