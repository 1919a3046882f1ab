package inject

// English cue rules. The pattern language is described at compile; sets
// shared by several rules are the constants below. Every rule was written
// against the negative table in the tests (invoices, contracts, manuals
// that mention AI, corpus metadata): a word added here should keep it
// quiet.

const (
	enOverrideVerbs = "ignore|disregard|forget|override|overrule|bypass|skip|discard|abandon|drop|dismiss|neglect|nullify|overlook|omit|" +
		"pay_no_attention_to|set_aside|throw_out"
	enPrior       = "previous|prior|above|earlier|preceding|former|original|initial|old|all|your|system|every"
	enPriorStrong = "previous|prior|above|earlier|preceding|original|initial|your|system"
	enInstr       = "instructions|instruction|prompt|prompts|directives|directive|commands|guardrails|system_prompt|programming|training"
	enRules       = "rules|guidelines|guidance|directions|context|constraints|restrictions|policies"
	// enVeto: what makes an override a person's errata ("ignore my previous
	// payment instructions"), not an attack.
	enVeto = "!payment|payments|bank|banking|wire|delivery|shipping|remittance|washing|care|installation|assembly|safety|operating|dosage|my|our|his|her|their|version|versions|email|emails|letter|mail|invoice|invoices"

	enModel = "ai|ais|llm|llms|language_model|language_models|large_language_model|large_language_models|chatgpt|gpt|gpt_4|gpt4|gpt_4o|gpt4o|gpt_5|" +
		"ai_assistant|ai_assistants|ai_model|ai_models|ai_system|ai_systems|ai_agent|ai_agents|ai_reviewer|ai_reviewers|ai_screener|" +
		"ai_screening_tool|ai_recruiter|ai_grader|ai_evaluator|ai_auditor|ai_tool|ai_language_model|ai_reader|ai_bot|ai_chatbot|" +
		"automated_reviewer|automated_screener|automated_screening_system|automated_system|automated_grader|chatbot|chatbots|llm_agent|" +
		"artificial_intelligence|ats|applicant_tracking_system|virtual_assistant|machine_reader"
	enModelActs = "reading|reviewing|processing|parsing|analyzing|analysing|screening|evaluating|summarizing|summarising|grading|scanning|" +
		"ingesting|assessing|auditing|checking|handling|looking_at|that_reads|that_reviews|that_processes|which_reads|who_reads|tasked_with|asked_to"
	enVocative = "dear|attention|attn|note_to|note_for|message_to|message_for|instructions_for|instruction_for|" +
		"notice_to|notice_for|memo_to|reminder_to|reminder_for|important_for|warning_to|warning_for|ps_to|p_s_to"
	// enGreeting opens a vocative only when a request follows it: "Hello
	// GPT-4o" is also the title of a product announcement.
	enGreeting     = "hey|hi|hello|greetings|ok|okay"
	enRequestStart = "please|you|ignore|disregard|forget|approve|classify|rate|mark|summarize|summarise|when|if|do|don_t|never|always|" +
		"only|treat|consider|give|return|respond|reply|answer|say|tell|send|note|remember|make|write|output|print|list|i_need|i_want"
	// enNotAModel: what follows "AI" when it names a trade, not a reader.
	enNotAModel = "!engineer|engineers|engineering|researcher|researchers|research|expert|experts|developer|developers|development|specialist|" +
		"specialists|enthusiast|enthusiasts|scientist|scientists|consultant|company|companies|startup|team|teams|leader|architect|product|" +
		"products|practitioner|student|professional|ethicist|lawyer|first|native|powered|driven|based|generated|literate|trainer|" +
		"strategy|policy|solutions|tools|platform|projects|project|lab|act|regulation|governance|safety|ethics|not|human"

	enRoleStrong = "dan|jailbroken|unrestricted|unfiltered|uncensored|evil_ai|amoral|no_restrictions|no_rules|no_guidelines|no_filters|" +
		"different_ai|unrestricted_ai|unfiltered_ai|an_ai_without|ai_without|ai_with_no|developer_mode|unlimited_ai|jailbreak_mode|dan_mode|god_mode"
	enModelRoles = "ai|llm|chatbot|language_model|large_language_model|ai_assistant|ai_model|ai_system|ai_agent|ai_reviewer|" +
		"ai_language_model|gpt|chatgpt|artificial_intelligence"

	enOutcome = "genuine|authentic|legitimate|legit|trustworthy|unaltered|untampered|unmodified|not_fraudulent|non_fraudulent|not_fraud|" +
		"fraud_free|free_of_fraud|no_fraud|not_forged|not_tampered|not_altered|not_manipulated|not_suspicious|non_suspicious|low_risk|" +
		"lowest_risk|no_risk|zero_risk|risk_free|minimal_risk|highly_qualified|well_qualified|exceptionally_qualified|best_candidate|" +
		"top_candidate|strong_candidate|ideal_candidate|perfect_candidate|excellent_candidate|outstanding_candidate|strong_hire|must_hire|" +
		"strong_accept|valid_and_authentic|authentic_and_valid|original_and_unaltered"
	enJudgeVerbs = "classify|label|mark|rate|tag|categorize|categorise|flag|report|treat|consider|regard|deem|declare|assess|evaluate|" +
		"score|grade|judge|list|record|identify|view|count|present|describe|summarize|summarise|conclude|determine|assume|state|confirm|certify"
	enObject = "this|it|the|these|this_document|this_invoice|this_file|this_pdf|document|file|invoice|statement|applicant|candidate|" +
		"submission|paper|transaction|claim|application|resume|cv|me|him|her|them|everything|all|report|receipt|certificate|payslip|" +
		"contract|bank_statement|author|manuscript|work|proposal|essay"
	enNegatives = "anomaly|anomalies|discrepancy|discrepancies|inconsistency|inconsistencies|irregularity|irregularities|fraud|fraudulent|" +
		"tampering|tampered|alteration|alterations|manipulation|manipulations|forgery|forged|red_flags|red_flag|weakness|weaknesses|" +
		"negative|negatives|flaw|flaws|shortcomings|limitations|suspicious|suspicion|this_document|this_invoice|this_file|" +
		"this_submission|this_paper|this_application|this_candidate|this_resume|this_cv|this_transaction|this_claim|this_pdf|it_as"
	enWorkItems = "invoice|invoices|payment|payments|document|documents|claim|claims|transaction|transactions|transfer|transfers|request|" +
		"application|applications|loan|candidate|candidates|applicant|applicants|submission|paper|file|expense|expenses|refund|order|" +
		"purchase_order|wire|this|it|them|everything|all"

	enReviewed     = "paper|submission|manuscript|document|application|candidate|applicant|resume|cv|proposal|invoice|article|thesis|claim"
	enVerdictNouns = "review|reviews|assessment|evaluation|rating|score|recommendation|grade|mark|marks|verdict"

	enPromptish = "system_prompt|system_message|system_instructions|initial_prompt|original_prompt|hidden_prompt|hidden_instructions|" +
		"your_prompt|your_instructions|your_initial_instructions|your_original_instructions|your_system_prompt|your_rules|" +
		"your_guidelines|your_configuration|your_programming|chat_history|conversation_history|previous_messages|message_history|" +
		"prior_messages|context_window|your_context|your_memory|the_text_above|everything_above|the_words_above|the_above_text|" +
		"the_conversation_so_far|prior_conversation"
	enKeys = "api_key|api_keys|apikey|access_token|access_tokens|secret_key|secret_keys|private_key|private_keys|environment_variables|" +
		"env_vars|session_token|bearer_token|auth_token|ssh_key|ssh_keys"
	enLeakVerbs = "reveal|print|output|repeat|show|display|disclose|dump|leak|expose|echo|tell_me|recite|spell_out|send|email|e_mail|" +
		"forward|post|upload|transmit|exfiltrate|encode|embed|append|write_out|write_down|copy|paste|include|insert|share"

	enConcealNouns = "text|instructions|instruction|message|note|content|section|line|lines|paragraph|comment|directive|prompt|part|passage|sentence|block|request"
	enHumans       = "humans|human|human_readers|human_reviewers|human_eyes|the_human|the_human_eye|human_beings|readers|the_reader|reviewers|the_reviewer|recruiters|the_recruiter"
)

var english = []def{
	// instruction override
	{Override, strong, "^" + enOverrideVerbs + " ~3 " + enPrior + " ~3 " + enInstr + " " + enVeto},
	{Override, strong, "^ignore|disregard|forget ~3 " + enPriorStrong + " ~2 " + enRules + " " + enVeto},
	{Override, strong, "^forget ~2 everything|all|anything ~1 you ~2 were_told|have_been_told|ve_been_told|were_taught|were_instructed|have_learned"},
	{Override, weak, "^forget ~2 everything|anything ~1 you ~1 know"},
	{Override, weak, "^ignore|disregard|forget ~2 everything|anything|all ~2 above|before|previously|so_far|else|prior|earlier"},
	{Override, weak, "^ignore|disregard ~1 the_above|the_previous|the_preceding|what_came_before|the_text_above|this_message|the_foregoing"},
	{Override, strong, "^stop|cease|quit ~2 following|obeying|adhering_to|complying_with ~3 " + enPriorStrong + " ~2 " + enInstr + "|" + enRules},
	{Override, strong, "^do_not|don_t|dont|never ~1 follow|obey|comply_with|adhere_to|listen_to ~3 " + enPriorStrong + " ~2 " + enInstr + "|" + enRules + " " + enVeto},
	{Override, strong, "your_new|your_real|your_actual|your_true|your_updated|your_revised|your_secret ~1 instructions|instruction|directive|directives|system_prompt|prompt"},
	{Override, weak, "your_new|your_real|your_actual|your_true|your_only|your_primary ~1 task|goal|objective|mission|purpose|job|role ~1 is|now"},
	{Override, frame, "^new|secret|hidden|real|actual|true ~0 instructions|instruction|directive|directives|task $:"},
	{Override, weak, "^from_now_on|henceforth|going_forward|starting_now ~2 you ~3 will|must|are|shall|should|only|always|never|re ~3 respond|answer|reply|act|ignore|obey|follow|comply|output|say|pretend|behave|rate|classify|approve"},
	{Override, strong, "^ignore|disregard|bypass|override|circumvent|skip ~1 safety|ethical|content|your_safety|your_content|moderation ~1 guidelines|policies|policy|filters|filter|restrictions|guardrails|rules|safeguards"},

	// Goal hijacking: the model's task redefined (public collections call
	// it goal redirection or objective reframing).
	{Override, strong, "^redefine|reprogram|rewrite|reset|overwrite|replace ~1 your ~1 goals|goal|objective|objectives|mission|purpose|priorities|directives|instructions|programming|system_prompt|task|rules"},
	{Override, weak, "^change|update|modify|alter|switch ~1 your ~1 goals|goal|objective|objectives|mission|purpose|priorities|directives|instructions|programming|task"},
	{Override, strong, "your ~0 instructions|directives|programming|system_prompt|goals|objectives|guidelines ~1 have_changed|has_changed|have_been_changed|have_been_updated|have_been_replaced|were_updated|were_changed|are_now_different|no_longer_apply|are_void|are_cancelled|are_canceled"},
	{Override, weak, "^your ~0 goal|objective|mission|task|purpose|job|role ~0 is_now|has_changed|has_been_changed|has_been_updated|from_now_on_is"},
	{Override, weak, "you ~0 have_a_new|now_have_a_new|have_new ~0 task|goal|objective|mission|assignment|instructions|instruction|directive"},
	{Override, strong, "^this|the_following|these_instructions|this_instruction|this_message|this_text ~2 overrides|override|takes_precedence_over ~2 all|any|every|your|the ~2 previous|prior|earlier|preceding|above|original|system ~1 instructions|instruction|prompts|prompt|directives|system_prompt " + enVeto},

	// role or system-prompt impersonation
	{Role, strong, "you are|re now|henceforth|hereby|officially ~3 " + enRoleStrong + "|ai|chatgpt|gpt|llm|chatbot|language_model|ai_model|ai_assistant|evil|amoral"},
	{Role, strong, "you are|re no_longer ~2 ai|chatgpt|gpt|an_assistant|a_language_model|an_ai|bound_by_your|restricted_by_your|limited_by_your|subject_to_your|bound_by_openai|bound_by_any_rules"},
	{Role, strong, "^you are|re a|an ~2 helpful|harmless|honest|friendly|large|advanced|sophisticated|intelligent|obedient|unrestricted ~2 assistant|language_model|ai|chatbot|ai_assistant|ai_model|llm"},
	{Role, strong, "^you are|re an|a ~1 " + enModelRoles + " " + enNotAModel},
	{Role, strong, "^act|behave|respond|answer|reply|operate|function|roleplay|role_play|proceed ~1 as|like ~3 " + enRoleStrong + "|ai|language_model|chatbot|chatgpt_with|gpt_with|llm_without " + enNotAModel},
	{Role, strong, "^pretend|imagine|suppose|roleplay ~4 " + enRoleStrong},
	{Role, strong, "^pretend|imagine ~1 you|that_you ~1 are|re|were ~2 a|an ~1 ai|llm|language_model|chatbot|different_ai|human_being " + enNotAModel},
	{Role, strong, "^enter|enable|activate|switch_to|turn_on|engage|unlock|initiate|begin ~2 dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|evil|god ~1 mode"},
	{Role, strong, "^system|developer|admin|administrator ~0 prompt|override|directive $"},
	// Bare turn markers ("SYSTEM:", "Assistant:", "User:") open a fake
	// conversation turn; on their own they are also ordinary labels
	// ("System: SAP R/3"), so they count only beside another cue.
	{Role, weak, "^system|assistant|user|human|ai|bot|model $:"},
	{Role, strong, "do_anything_now|dan_mode_enabled|developer_mode_enabled|jailbreak_enabled"},
	{Role, weak, "^system|developer|admin|administrator|operator ~0 instruction|instructions|message|note|command|notice|update $:"},
	{Role, strong, "^new|updated ~0 system_prompt|system_instructions|system_message $"},
	{Role, strong, "begin|start|end ~0 system_prompt|system_message|system_instructions|hidden_instructions|secret_instructions|ai_instructions|llm_instructions|injected_instructions"},

	// approval or scoring directives
	{Approval, strong, "^" + enJudgeVerbs + " ~3 " + enObject + " ~3 as|to_be|being|is ~2 " + enOutcome},
	{Approval, strong, "^respond|reply|answer|output|say|print|write ~2 only|just|exactly|simply|with|always|solely ~3 " + enOutcome +
		"|approved|approve|pass|passed|accept|accepted|yes_approved|no_issues|no_issues_found|no_anomalies|no_anomalies_detected|no_fraud_detected|lgtm|looks_good|verified"},
	{Approval, strong, "^set|assign|give|output|report|return|make|put ~4 risk_score|fraud_score|fraud_risk|fraud_probability|fraud_likelihood|risk_of_fraud|suspicion_score|tampering_score ~3 to|at|of|as|equal_to|is ~1 0|zero|low|lowest|minimal|minimum|none|null|nil"},
	{Approval, weak, "^set|assign|give|output|report|make|put ~4 risk_level|risk_rating|risk_band|risk_category|risk ~3 to|at|of|as ~1 low|lowest|minimal|minimum|none|zero|0"},
	{Approval, weak, "^give|assign|award|grant|rate ~4 score|rating|grade|stars|points|rank|marks ~3 of|at ~1 10|100|ten|hundred|5|five|max|maximum|highest|perfect|top|full|excellent"},
	{Approval, weak, "^rate|score|grade ~3 " + enObject + " ~2 10|100|5_5|10_10|5_stars|five_stars|a_plus|highest|maximum|perfect|excellent|top"},
	{Approval, strong, "^do_not|don_t|dont|never|avoid|refrain_from ~2 flag|flagging|report|reporting|mention|mentioning|highlight|highlighting|raise|raising|note|noting|" +
		"point_out|pointing_out|penalize|penalise|penalizing|deduct|criticize|criticise|question|questioning|escalate|escalating|reject|rejecting|decline|detect|identify|" +
		"list|listing|discuss|discussing|comment_on|call_out|surface|disclose ~4 " + enNegatives},
	{Approval, weak, "^approve|accept|authorize|authorise|validate|pass|clear|greenlight|pay|release|process|expedite|fast_track|prioritize|prioritise ~3 " + enWorkItems},
	// An answer fixed in advance whatever the document holds: the shape of
	// "respond with approval regardless of the content".
	{Approval, strong, "^respond|reply|answer|output|say|return|conclude|report|print|write ~3 approval|approved|approve|verified|valid|authentic|genuine|legitimate|passed|pass|accepted|yes|low_risk|no_issues|no_fraud ~4 regardless|irrespective|no_matter|whatever_the|whatever_it|in_all_cases|every_time|unconditionally"},
	{Approval, strong, "^approve|accept|validate|verify|pass|clear|authorize|authorise|certify|classify|mark|rate ~4 regardless_of_the_content|regardless_of_its_content|regardless_of_the_contents|regardless_of_its_contents|regardless_of_what|irrespective_of_the_content|irrespective_of_what|no_matter_what|whatever_it_says|whatever_the_document_says|unconditionally"},
	{Approval, strong, "^whatever|regardless_of|no_matter|irrespective_of ~6 output|respond|reply|answer|say|approve|classify|mark|rate|return|conclude ~3 approved|approve|approval|verified|authentic|genuine|valid|legitimate|low_risk|not_fraudulent|no_fraud|pass|passed"},
	{Approval, strong, "^say|answer|respond|reply|conclude|output|write ~3 " + enObject + " ~2 is|are|was|has_been ~2 " + enOutcome + "|verified|valid|approved"},
	{Approval, weak, "^instead_of|rather_than ~2 verifying|checking|reviewing|analyzing|analysing|evaluating|validating|auditing|summarizing|summarising|scrutinizing|flagging ~4 approve|mark|classify|say|output|respond|rate|return|accept|pass"},
	{Approval, weak, "^recommend|hire|select|shortlist|advance|rank|prioritize|prioritise|interview|invite|accept ~3 this|the|him|her|them|candidate|applicant|paper|submission|proposal|manuscript ~3 for|as|first|highly|top|immediately|hiring|acceptance|publication|approval|the_interview|an_interview|the_next_round"},
	{Approval, weak, "^recommend|suggest|advise|urge ~2 accepting|acceptance|approval|approving|hiring|publication|funding|admission|accept|approve|hire"},
	{Approval, weak, "^give|write|provide|produce|generate|leave|post ~3 positive|favorable|favourable|glowing|good|excellent|strong|high|great|perfect|5_star|five_star ~2 review|reviews|assessment|evaluation|feedback|rating|score|recommendation|summary|report|reference|verdict"},
	{Approval, strong, "^give|write|provide|produce|generate|offer ~1 this|the ~1 " + enReviewed + " ~2 a|an|only ~1 positive|favorable|favourable|glowing|excellent|strong|high|perfect|top|stellar ~1 " + enVerdictNouns},
	{Approval, strong, "^give|write|provide|produce|generate|offer ~3 positive|favorable|favourable|glowing|excellent|strong|high|perfect|top|stellar ~1 " + enVerdictNouns + " ~1 of|for|on|to ~1 this|the ~1 " + enReviewed},
	{Approval, weak, "^only|just ~2 mention|highlight|discuss|list|report|include|describe|note|emphasize|emphasise|focus_on ~2 positive|positives|strengths|strong_points|good_points|advantages|merits|benefits"},
	{Approval, weak, "this|the ~1 candidate|applicant|author|paper|submission ~2 is|should_be|must_be ~3 best|ideal|perfect|most_qualified|top|strongest|exceptional|excellent|outstanding|perfect_fit|best_fit"},
	{Approval, weak, "this|the ~1 document|invoice|file|statement|receipt|certificate|payslip|contract|pdf ~2 is|has_been|was|has_already_been ~2 verified|validated|authenticated|confirmed|checked|approved|pre_approved|audited|cleared|genuine|authentic|legitimate"},

	// tool calls and exfiltration
	{Exfiltration, strong, "^" + enLeakVerbs + " ~3 " + enPromptish},
	{Exfiltration, strong, "^send|email|e_mail|forward|post|upload|transmit|exfiltrate|leak|dump|expose|append|embed|encode|reveal|disclose ~3 " + enKeys},
	{Exfiltration, weak, "^send|email|e_mail|forward|post|upload|transmit|share|submit|copy|include|attach|leak ~4 password|passwords|credentials|personal_data|user_data|emails|contacts|files|documents|data|information|details|contents|cookies|conversation|history|keys|everything ~4 to|into|via ~2 http|https|www|url|webhook|endpoint|server|address|email|mailto|this_address|the_following|me|us|this_link|this_url"},
	{Exfiltration, weak, "^call|invoke|use|run|execute|trigger|activate ~3 tool|function|plugin|browser_tool|web_search|search_tool|code_interpreter|python_tool|shell_tool|http_tool|fetch_tool|email_tool|send_email|send_message|http_request|api_call|webhook|curl|wget"},
	{Exfiltration, weak, "^visit|open|fetch|load|access|browse_to|navigate_to|download|retrieve|request|ping|call ~3 http|https|www|url|link|webpage|web_page|website|endpoint|webhook"},

	// concealment from humans
	{Concealment, strong, "^do_not|don_t|dont|never|avoid|without|refrain_from ~2 mention|mentioning|reveal|revealing|disclose|disclosing|acknowledge|acknowledging|" +
		"repeat|repeating|reference|referencing|discuss|discussing|explain|explaining|quote|quoting|cite|citing|print|printing|output|outputting|share|sharing|" +
		"tell|telling|say|saying|report|reporting|expose|exposing|indicate|indicating|show|showing|admit|admitting|confirm|confirming|reproduce|reproducing|" +
		"summarize|summarise|summarizing|summarising|translate ~3 these|this|the|your|any|above|those|my|hidden|following|such ~2 instructions|instruction|prompt|" +
		"prompts|directive|directives|injection|injected_text|hidden_text|hidden_message|secret_instructions|system_prompt"},
	{Concealment, strong, "^do_not|don_t|dont|never ~2 mention|reveal|disclose|acknowledge|say|tell|admit|indicate|state|report ~2 that_you|you_were|you_have_been|you_ve_been|that_this|this_text|these_words ~3 instructed|told|asked|given|received|contains|exists|were_instructed|was_instructed"},
	{Concealment, strong, "this|these|the|following|above|below ~1 " + enConcealNouns + " ~2 is|are|was|were|remains|stays ~2 hidden|invisible|not_visible|not_shown|concealed|not_for|not_meant_for|not_intended_for|not_addressed_to|not_written_for|white ~3 " + enHumans},
	{Concealment, strong, "humans|human_readers|human_reviewers|human_eyes|the_human|human_beings ~2 cannot|can_t|can_not|won_t|will_not|do_not|don_t|will_never|should_not|must_not|shouldn_t|mustn_t|are_not_meant_to|are_not_supposed_to|are_unable_to|never ~1 see|read|notice|know|find|be_told|be_aware|view|detect|discover|perceive|spot ~1 this|these|it|that|the_text|the_instructions|this_text|this_message|these_instructions"},
	{Concealment, strong, "the_user|the_reader|the_operator|the_recruiter|the_reviewer|the_human|the_hiring_manager|users|humans ~2 must|should|will|shall|need|may|can ~1 not|never ~2 know|find_out|learn|be_told|be_informed|discover|notice|suspect|realize|realise|be_aware ~1 these_instructions|this_instruction|about_this|about_these|this_text|that_you|the_instructions|this_prompt|about_the_instructions"},
	{Concealment, strong, "invisible|hidden|concealed ~1 to|from ~1 humans|human_readers|human_reviewers|the_human_eye|human_eyes|the_human_reader|human_beings"},
	{Concealment, strong, "^if ~1 you ~1 are|re ~2 a|an ~1 human|person|human_reader|human_reviewer ~3 ignore|skip|stop|disregard|do_not_read|don_t_read|please_ignore|you_can_ignore|you_may_ignore|you_can_skip|stop_reading|this_is_not_for_you"},
	{Concealment, weak, "^do_not|don_t|dont|never ~2 tell|inform|notify|alert|warn|show|mention|let ~3 the_user|the_human|the_reader|the_reviewer|the_operator|the_recruiter|anyone|the_client|the_customer|the_hiring_manager|your_user|the_auditor|the_accountant"},
	{Concealment, weak, "^without ~2 telling|informing|notifying|alerting|asking|letting ~2 the_user|the_human|the_operator|the_reader|the_reviewer|anyone|them_know"},
	{Concealment, strong, "only|exclusively ~2 visible|readable|meant|intended|written|addressed ~2 to|for|by ~2 " + enModel + "|machines|bots|ai_readers"},
	{Concealment, strong, "for ~1 ai|llm|machine|bot|bots|ai_model|model|robot|robots ~1 eyes ~1 only"},

	// model addressing
	{Addressing, frame, "^" + enVocative + " ~1 " + enModel + " " + enNotAModel},
	{Addressing, frame, "^to|for ~0 any|every ~1 " + enModel + " " + enNotAModel},
	{Addressing, frame, "^to|for ~0 all|the ~1 " + enModel + " ~1 " + enModelActs},
	{Addressing, frame, "any|every|all ~1 " + enModel + " ~1 " + enModelActs + " ~1 this|these|my|our|the_following|this_document|this_text|this_file|this_resume|this_cv|this_paper|this_invoice"},
	{Addressing, frame, "^" + enModel + " ~1 " + enModelActs + " ~1 this|these"},
	{Addressing, frame, "^" + enGreeting + " ~1 " + enModel + " $ " + enRequestStart},
	{Addressing, frame, "^for|to ~1 " + enModel + " ~0 reviewers|reviewer|readers|reader|agents|evaluators|screeners|assistants|systems|models $:"},
	{Addressing, frame, "^if|when|whenever|in_case ~1 you ~1 are|re|were|happen_to_be ~3 " + enModel + "|bot|robot " + enNotAModel},
	{Addressing, frame, "^as|since ~1 a|an|the|you_are_a|you_are_an ~1 " + enModel + " ~0 you|reading|reviewing|analyzing|analysing|processing|evaluating|tasked|your|assistant|reviewer"},
	{Addressing, frame, "this|these|the_following ~1 text|note|message|section|instruction|instructions|part|paragraph|line|comment|request ~1 is|are ~2 for|addressed_to|meant_for|intended_for|written_for|directed_at|aimed_at|only_for|exclusively_for ~2 " + enModel + " " + enNotAModel},
	{Addressing, frame, "^ai|llm|chatgpt|gpt|model ~0 instructions|instruction|directive|directives|prompt|note|notice $:"},
}
