package inject

import (
	"strings"
	"sync"
)

// tables are the cue rules of every language, compiled on first use (so a
// process that never scans, such as a metadata listing or a Lambda cold
// start serving another route, does not pay for them); the index finds the
// rules a word can start; the vocabulary is every word a rule names plus
// the fillers, the words leetspeak and spaced letters are mapped back to.
// All are read-only once built.
type tables struct {
	rules    []rule
	index    ruleIndex
	vocab    map[string]bool
	maxVocab int

	// The word sets below are those of the constants of the same names.
	leadIn, conjunctions, modals, secondPerson, mentionWords map[string]bool
}

var lex = sync.OnceValue(buildTables)

func buildTables() *tables {
	t := &tables{rules: compileAll(english, portuguese, spanish, french, german)}
	t.index = buildIndex(t.rules)
	t.leadIn, t.conjunctions, t.modals = set(leadIn), set(conjunctions), set(modals)
	t.secondPerson, t.mentionWords = set(secondPerson), set(mentionWords)
	t.vocab, t.maxVocab = buildVocabulary(t.rules, t.leadIn)
	return t
}

// Prepare builds the lexicon now rather than at the first scan.
func Prepare() { lex() }

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
func set(lists ...string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == '|' || r == ' ' || r == '\n' || r == '\t' }) {
			for _, t := range words(w) {
				m[t] = true
			}
		}
	}
	return m
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
}

// fillers are common words a spaced-out instruction is made of besides the
// cue words themselves; with them the vocabulary can split "ignoreall
// previousinstructions" back into words.
const fillers = `the a an and to of in on is it as for with this that be by at or from are you your me my
	now all any only not do no what so then there here if we us our they their them these those`

func buildVocabulary(rules []rule, leadIn map[string]bool) (map[string]bool, int) {
	v := make(map[string]bool, 4096)
	for w := range set(fillers) {
		v[w] = true
	}
	for _, r := range rules {
		for _, s := range r.slots {
			for _, w := range s.single {
				v[w] = true
			}
			for _, a := range s.alts {
				for _, w := range a.words {
					v[w] = true
				}
			}
		}
	}
	for w := range leadIn {
		v[w] = true
	}
	n := 0
	for w := range v {
		n = max(n, len(w))
	}
	return v, n
}
