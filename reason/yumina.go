package reason

var yuminaSentences = map[Code]sentence{}
