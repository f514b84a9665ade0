package reason

var sillyTavernSentences = map[Code]sentence{}

func passName(p Params) string { return "recursion" }
