package dbtype

import "testing"

func TestTextArrayLiteral(t *testing.T) {
	v, err := TextArray{`plain`, `with "quotes"`, `back\slash`, ``}.Value()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v, `{"plain","with \"quotes\"","back\\slash",""}`; got != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}
