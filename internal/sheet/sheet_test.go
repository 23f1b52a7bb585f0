package sheet_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/xuri/excelize/v2"

	"agora/internal/sheet"
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
