package output

import (
	"html/template"
	"strings"
	"testing"
)

// rowTemplate is the row as html.tmpl wrote it before leftOutRows: the
// reference leftOutRows must equal byte for byte.
var rowTemplate = template.Must(template.New("rows").Parse(`<table><tbody>
{{- range .}}
<tr id="{{.Anchor}}"><td><b>{{.ID}}</b>{{if and .Name (ne .Name .ID)}} <span class="muted">{{.Name}}</span>{{end}}{{if and .Pos (ne .Pos "-")}}<div class="pos">{{.Pos}}</div>{{end}}</td><td class="nowrap">{{.Section}}</td><td>{{if .Reasons}}<ul>{{range .Reasons}}<li>{{.}}</li>{{end}}</ul>{{else}}<span class="muted">no reason recorded</span>{{end}}</td></tr>
{{- end}}</tbody></table>`))

func checkRowsAsTemplate(t *testing.T, rows []htmlLeftOut) {
	t.Helper()
	var want strings.Builder
	if err := rowTemplate.Execute(&want, rows); err != nil {
		t.Fatal(err)
	}
	got := "<table><tbody>" + string(leftOutRows(rows)) + "</tbody></table>"
	if got != want.String() {
		t.Errorf("leftOutRows differs from the template:\n got %q\nwant %q", got, want.String())
	}
}

func TestLeftOutRowsAsTemplate(t *testing.T) {
	checkRowsAsTemplate(t, nil)
	checkRowsAsTemplate(t, []htmlLeftOut{
		{Anchor: "e-a", ID: "a", Name: "a", Section: "chat-history", Pos: "-"},
		{Anchor: "e-b_3c_", ID: `b<script>&"'+`, Name: "Bee \x00 \xff\xfe 霧", Section: "", Pos: "book/x.yaml:3:5",
			Reasons: []string{"no keyword matched", `<i>"quoted" & 'single' + plus</i>`, ""}},
		{Anchor: "e-c", ID: "c", Name: "", Section: "post-history", Pos: "", Reasons: []string{"x"}},
	})
}

func FuzzLeftOutRows(f *testing.F) {
	f.Add("id", "Name", "chat-history", "f.yaml:1:2", "reason")
	f.Add(`<"'&+>`, "\x00\xff", "", "-", "")
	f.Fuzz(func(t *testing.T, id, name, section, pos, reason string) {
		row := htmlLeftOut{Anchor: entryAnchor(id), ID: id, Name: name, Section: section, Pos: pos}
		if reason != "" {
			row.Reasons = []string{reason, reason}
		}
		checkRowsAsTemplate(t, []htmlLeftOut{row, {ID: name, Name: id}})
	})
}
