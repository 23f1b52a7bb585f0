package projections

import "testing"

func TestReportCompare(t *testing.T) {
	tests := []struct {
		name      string
		want, got map[string][]string
		report    Report
	}{
		{"equal", map[string][]string{"a": {"1"}, "b": {"2"}}, map[string][]string{"b": {"2"}, "a": {"1"}}, Report{Records: 2}},
		{"missing", map[string][]string{"a": {"1"}, "b": {"2"}}, map[string][]string{"a": {"1"}}, Report{Records: 2, Missing: 1}},
		{"doubled", map[string][]string{"a": {"1"}}, map[string][]string{"a": {"1", "1"}}, Report{Records: 1, Doubled: 1}},
		{"different", map[string][]string{"a": {"1"}}, map[string][]string{"a": {"2"}}, Report{Records: 1, Different: 1}},
		{"extra", map[string][]string{}, map[string][]string{"z": {"1"}}, Report{Extra: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Report
			r.compare(tt.want, tt.got)
			r.Examples = nil
			if r.Records != tt.report.Records || r.Missing != tt.report.Missing || r.Doubled != tt.report.Doubled ||
				r.Different != tt.report.Different || r.Extra != tt.report.Extra {
				t.Fatalf("got %v, want %v", r, tt.report)
			}
			if r.Equal() != (tt.name == "equal") {
				t.Fatalf("Equal() = %v", r.Equal())
			}
		})
	}
}
