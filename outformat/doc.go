// Package outformat reads the output-format templates of SPEC §5 out of entry
// content: the `---` blocks and their YAML, the mappings that hold a `format`,
// the parts of a nested format and the ${part} references between them, the
// ${…} and $(…) markers and the <tag>s of a template text, and where in the
// content any byte of a template value was written. The format-template lint
// rule checks templates with it and the reply checker (package reply) compiles
// them into what a model's reply must look like, so both read a template the
// same way.
//
// It reports nothing itself and knows nothing of lint rules, replies or
// engines.
package outformat
