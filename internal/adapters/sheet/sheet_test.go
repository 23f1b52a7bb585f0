package sheet_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"agora/internal/adapters/sheet"
	"agora/internal/adapters/sheet/sheettest"
)

func TestReadCSV(t *testing.T) {
	data := "\uFEFFfirstName,Email,tags\r\n" +
		"Ada,ada@example.test,\"analytics, engines\"\r\n" +
		"\r\n" +
		" , ,\r\n" +
		"\"Multi\nLine\",\"say \"\"hi\"\"\"\r\n" +
		"Short\n"
	rows, err := sheet.Read("people.CSV", []byte(data), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []sheet.Row{
		{1, []string{"firstName", "Email", "tags"}},
		{2, []string{"Ada", "ada@example.test", "analytics, engines"}},
		{5, []string{"Multi\nLine", `say "hi"`}},
		{7, []string{"Short"}},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %+v, want %+v", rows, want)
	}
}

func TestReadXLSX(t *testing.T) {
	f := excelize.NewFile()
	for i, row := range [][]any{{"email", "firstName"}, {"ada@example.test", "Ada"}, nil, {"bob@example.test", "Bob"}} {
		if row != nil {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := sheet.Read("people.xlsx", b.Bytes(), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []sheet.Row{{1, []string{"email", "firstName"}}, {2, []string{"ada@example.test", "Ada"}}, {4, []string{"bob@example.test", "Bob"}}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %+v, want %+v", rows, want)
	}
}

func TestReadRefuses(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       error
	}{
		{"people.pdf", "%PDF-1.4", sheet.ErrType},
		{"people", "email\na@b.c", sheet.ErrType},
		{"people.csv", "email\n\"unclosed", sheet.ErrUnreadable},
		{"people.csv", "email\n\xff\xfe", sheet.ErrUnreadable},
		{"people.csv", "email\x00\n", sheet.ErrUnreadable},
		{"people.xlsx", "email\na@b.c", sheet.ErrUnreadable},
		{"people.csv", "email\na\nb\nc\n", sheet.ErrTooManyRows},
	} {
		if _, err := sheet.Read(c.name, []byte(c.data), 3); !errors.Is(err, c.want) {
			t.Errorf("%s %q: %v, want %v", c.name, c.data, err, c.want)
		}
	}
	// Blank rows do not count.
	if rows, err := sheet.Read("people.csv", []byte("email\n\n\na\n,\nb\n"), 3); err != nil || len(rows) != 3 {
		t.Errorf("%v %v", rows, err)
	}
}

// TestReadXLSXBomb: a workbook that unpacks to far more than it weighs (the
// probe's finding: a 205 KB file holding one 200 MiB cell) is refused, in
// a fraction of a second and without unpacking it into memory, whether the
// zip declares its sizes truly or not; the same workbook with a short cell
// is read.
func TestReadXLSXBomb(t *testing.T) {
	rows, err := sheet.Read("people.xlsx", sheettest.Bomb(10), 10)
	want := []sheet.Row{{1, []string{"firstName", "lastName", "email"}}, {2, []string{"AAAAAAAAAA", "lastName", "bomb@example.test"}}}
	if err != nil || !reflect.DeepEqual(rows, want) {
		t.Fatalf("a bomb's small twin: %+v %v, want %+v", rows, err, want)
	}
	for _, c := range []struct {
		name string
		file []byte
		want error
	}{
		{"a 200 MiB cell", sheettest.Bomb(200 << 20), sheet.ErrTooLarge},
		{"a 5 MiB cell packed a thousandfold", sheettest.Bomb(5 << 20), sheet.ErrTooLarge},
		{"a 20 MiB cell declared as packed to 10 MiB", lying(t, 20<<20, 10<<20, 20<<20), sheet.ErrTooLarge},
		{"a 20 MiB cell declared as 1 KB", lying(t, 20<<20, 0, 1000), sheet.ErrUnreadable},
		{"a cell of 1 MiB", textCell(t, 1<<20), sheet.ErrTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := sheet.Read("bomb.xlsx", c.file, 10)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, c.want) {
				t.Fatalf("%v, want %v", err, c.want)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
				t.Errorf("reading it allocated %d MiB", n>>20)
			}
			if took > 2*time.Second {
				t.Errorf("refused after %v", took)
			}
		})
	}
}

// lying is Bomb's workbook with its shared strings (a cell of cellBytes
// letters) put raw, declaring the packed and unpacked sizes given (0: the
// true one) and the true checksum.
func lying(t *testing.T, cellBytes int, packed, unpacked uint64) []byte {
	t.Helper()
	bomb := sheettest.Bomb(cellBytes)
	in, err := zip.NewReader(bytes.NewReader(bomb), int64(len(bomb)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	out := zip.NewWriter(&b)
	for _, f := range in.File {
		h := f.FileHeader
		if f.Name == "xl/sharedStrings.xml" {
			if packed != 0 {
				h.CompressedSize64 = packed
			}
			h.UncompressedSize64 = unpacked
		}
		r, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		w, err := out.CreateRaw(&h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// textCell is a workbook whose A2 holds n letters that do not pack (a
// cell far longer than any field of a person).
func textCell(t *testing.T, n int) []byte {
	t.Helper()
	letters := make([]byte, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range letters {
		letters[i] = byte('a' + rng.IntN(26))
	}
	return sheettest.Workbook(bytes.NewReader(letters))
}

// TestReadColumns: a row's cells past MaxColumns are left out, in either
// format, so that a cell named at a sheet's last column (XFD) does not
// make a row 16,384 cells wide.
func TestReadColumns(t *testing.T) {
	csv := strings.Repeat("x,", sheet.MaxColumns+10) + "x\n"
	rows, err := sheet.Read("wide.csv", []byte(csv), 10)
	if err != nil || len(rows) != 1 || len(rows[0].Cells) != sheet.MaxColumns {
		t.Errorf("csv: %v, %d cells", err, len(rows[0].Cells))
	}
	f := excelize.NewFile()
	for _, c := range []struct{ cell, v string }{{"A1", "email"}, {"B1", "name"}, {"XFD1", "far"}, {"XFD2", "only far"}} {
		if err := f.SetCellValue("Sheet1", c.cell, c.v); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	rows, err = sheet.Read("wide.xlsx", b.Bytes(), 10)
	if want := []sheet.Row{{1, []string{"email", "name"}}}; err != nil || !reflect.DeepEqual(rows, want) {
		t.Errorf("xlsx: %+v %v, want %+v", rows, err, want)
	}
}
