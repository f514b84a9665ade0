package render

import "testing"

func TestFormatValue(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"act2", "act2"}, {7.0, "7"}, {2.5, "2.5"}, {1e21, "1000000000000000000000"}, {true, "true"},
		{nil, "null"}, {[]any{"a", 1.0}, "a, 1"}, {[]any{}, "[]"}, {map[string]any{"z": 1.0, "a": "<b>"}, `{"a":"<b>","z":1}`},
		{3, "3"},
	}
	for _, tt := range tests {
		if got := FormatValue(tt.in); got != tt.want {
			t.Errorf("FormatValue(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
