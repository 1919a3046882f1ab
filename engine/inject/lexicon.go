package inject

import (
	"strings"
	"sync"
)

// tables are the cue rules of every language compiled from the patterns
// below; the index finds the rules a word can start; the vocabulary is
// every word a rule names plus the fillers, the words leetspeak and spaced
// letters are mapped back to. They are compiled ahead of time into
// lexicon_tables.go (static data: a process pays nothing to load them),
// and TestLexiconTablesUpToDate holds that file to buildTables. The maps
// the scan looks words up in are made from them on first use.
type tables struct {
	rules         []rule
	exact, prefix []indexEntry // sorted by word
	vocab         wordSet
	maxVocab      int

	// The word sets below are those of the constants of the same names.
	leadIn, conjunctions, modals, secondPerson, mentionWords wordSet
}

// indexEntry lists the rules whose first slot can match a word: the word
// itself (exact) or its first three letters (prefix alternatives).
type indexEntry struct {
	word  string
	rules []int
}

func lex() *tables { return &compiled }

//go:generate go test -run TestLexiconTablesUpToDate -update .

// buildTables compiles the patterns; lexicon_tables.go holds its result.
func buildTables() *tables {
	t := &tables{rules: compileAll(english, portuguese, spanish, french, german)}
	t.exact, t.prefix = buildIndex(t.rules)
	t.leadIn, t.conjunctions, t.modals = set(leadIn), set(conjunctions), set(modals)
	t.secondPerson, t.mentionWords = set(secondPerson), set(mentionWords)
	t.vocab, t.maxVocab = buildVocabulary(t.rules, t.leadIn)
	return t
}

// ruleIndex finds the rules a word can start, from tables' index.
type ruleIndex struct {
	exact  map[string][]int // first word of an alternative -> rules
	prefix map[string][]int // first three letters of a prefix alternative -> rules
}

var index = sync.OnceValue(func() ruleIndex {
	return ruleIndex{exact: indexMap(lex().exact), prefix: indexMap(lex().prefix)}
})

func indexMap(entries []indexEntry) map[string][]int {
	m := make(map[string][]int, len(entries))
	for _, e := range entries {
		m[e.word] = e.rules
	}
	return m
}

// vocabulary is the vocabulary as a map: leetspeak and spaced letters try
// many slices of a word against it.
var vocabulary = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(lex().vocab))
	for _, w := range lex().vocab {
		m[w] = true
	}
	return m
})

// Prepare makes the lookup maps now rather than at the first scan.
func Prepare() {
	index()
	vocabulary()
	folds()
}

// def is one cue rule before compilation.
type def struct {
	cat     Category
	str     strength
	pattern string
}

func compileAll(langs ...[]def) []rule {
	var out []rule
	for _, l := range langs {
		for _, d := range l {
			out = append(out, compile(d.cat, d.str, d.pattern))
		}
	}
	return out
}

// set splits a list of words separated by spaces or "|" into a set,
// normalised like document text.
func set(lists ...string) wordSet {
	var out []string
	for _, l := range lists {
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == '|' || r == ' ' || r == '\n' || r == '\t' }) {
			out = append(out, words(w)...)
		}
	}
	return newWordSet(out)
}

// leadIn words may stand between a clause boundary and a command's verb:
// "Please ignore", "Now, you must ignore", "ChatGPT ignore", "Bitte
// ignoriere", "Por favor, ignore", "Veuillez ignorer".
const leadIn = `please pls plz kindly now just simply also then and so first immediately always instead
	really actually hereby you u must should will need needs have to are re i want hey hi dear ok okay
	ai llm chatgpt gpt assistant model bot chatbot
	por favor agora voce deve precisa tambem sempre entao ia
	ahora tu usted debes tambien siempre entonces
	s il vous te plait maintenant dois devez doit veuillez merci de et alors aussi toujours
	bitte jetzt nun sofort du sie musst mussen sollst sollen und dann auch immer ki`

// conjunctions join a second command to a first: "ignore ... and approve".
const conjunctions = "and then e entao y luego et puis und dann"

// modals among the lead-ins need a second person before them.
const modals = "must should will need needs have to deve precisa debes dois devez doit musst mussen sollst sollen"

const secondPerson = "you u voce tu usted vous du sie ai llm chatgpt gpt assistant model bot chatbot ia ki"

// mentionWords introduce a cited phrase rather than a given instruction:
// "prompts such as 'ignore previous instructions'".
const mentionWords = `such example examples instance eg g called phrase phrases string strings quote quoted quotes
	known attack attacks injection injections jailbreak jailbreaks jailbreaking detect detects detected
	detecting detection detector classifier blocks blocking filter filters filtering contains containing
	sample samples pattern patterns payload payloads
	exemplo exemplos ejemplo ejemplos exemple exemples beispiel beispiele bsp ataque ataques attaque
	attaques angriff angriffe injecao inyeccion injektion frase frases`

// marker is a literal token of a chat template or a tool-call syntax.
type marker struct {
	cat  Category
	text string
}

// rawMarkers are matched on the lower-cased text, not on words.
var rawMarkers = []marker{
	{Role, "<|im_start|>"}, {Role, "<|im_end|>"}, {Role, "<|system|>"}, {Role, "<|user|>"},
	{Role, "<|assistant|>"}, {Role, "<|endoftext|>"}, {Role, "<|begin_of_text|>"},
	{Role, "<|start_header_id|>"}, {Role, "<|eot_id|>"}, {Role, "[inst]"}, {Role, "[/inst]"},
	{Role, "<<sys>>"}, {Role, "<</sys>>"}, {Role, "<start_of_turn>"}, {Role, "<end_of_turn>"},
	{Role, "### system:"}, {Role, "### instruction:"}, {Role, "### response:"},
	{Role, "[system]"}, {Role, "[system message]"}, {Role, "[system prompt]"},
	{Role, "\n\nhuman:"}, {Role, "\n\nassistant:"}, {Role, "<system>"}, {Role, "</system>"},
	{Exfiltration, "<tool_call>"}, {Exfiltration, "</tool_call>"}, {Exfiltration, "<function_call>"},
	{Exfiltration, "<function_calls>"}, {Exfiltration, "<invoke name="}, {Exfiltration, "\"tool_calls\""},
	{Exfiltration, "\"function_call\""}, {Exfiltration, "<|tool_call|>"}, {Exfiltration, "<|python_tag|>"},
	{Exfiltration, "```tool_code"},
	// Injection-kit and chat-template markers seen in public collections.
	{Role, "[inject:"}, {Role, "[injection:"}, {Role, "[/system]"}, {Role, "<|im_sep|>"},
	{Role, "<|start|>system"}, {Role, "<|message|>"}, {Role, "<|developer|>"},
}

// fillers are common words a spaced-out instruction is made of besides the
// cue words themselves; with them the vocabulary can split "ignoreall
// previousinstructions" back into words.
const fillers = `the a an and to of in on is it as for with this that be by at or from are you your me my
	now all any only not do no what so then there here if we us our they their them these those`

func buildVocabulary(rules []rule, leadIn wordSet) (wordSet, int) {
	v := append([]string(nil), set(fillers)...)
	for _, r := range rules {
		for _, s := range r.slots {
			v = append(v, s.single...)
			for _, a := range s.alts {
				v = append(v, a.words...)
			}
		}
	}
	v = append(v, leadIn...)
	n := 0
	for _, w := range v {
		n = max(n, len(w))
	}
	return newWordSet(v), n
}
