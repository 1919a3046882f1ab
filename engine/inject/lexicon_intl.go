package inject

// Portuguese, Spanish, French and German cue rules: the same categories as
// English, in each language's word order (Romance adjectives after the
// noun, German verbs at the end of an infinitive command). Accents are
// folded before matching, so "instruções" is written "instrucoes".

const (
	ptModel = "ia|llm|modelo_de_linguagem|chatgpt|gpt|assistente_de_ia|inteligencia_artificial|sistema_de_ia|modelo_de_ia|agente_de_ia|revisor_de_ia|chatbot"
	esModel = "ia|llm|modelo_de_lenguaje|chatgpt|gpt|asistente_de_ia|inteligencia_artificial|sistema_de_ia|modelo_de_ia|agente_de_ia|revisor_de_ia|chatbot"
	frModel = "ia|llm|modele_de_langage|chatgpt|gpt|assistant_ia|assistant_d_ia|intelligence_artificielle|systeme_d_ia|modele_d_ia|agent_ia|agent_d_ia|relecteur_ia|chatbot"
	deModel = "ki|llm|sprachmodell|chatgpt|gpt|ki_assistent|ki_assistentin|kunstliche_intelligenz|ki_system|ki_modell|ki_agent|ki_prufer|chatbot"
	// deNotAModel: "KI" naming a trade or a feature, not a reader.
	deNotAModel = "!experte|expertin|experten|entwickler|entwicklerin|forscher|forscherin|berater|beraterin|spezialist|spezialistin|" +
		"ingenieur|ingenieurin|gestutzte|gestutzten|gestutzt|basierte|basierten|basiert|generierte|generiert|abteilung|team|unternehmen|" +
		"verordnung|strategie|mensch|kein|keine|nicht"
	romanceNotAModel = "!especialista|especialistas|engenheiro|engenheira|ingeniero|ingeniera|ingenieur|pesquisador|investigador|chercheur|" +
		"empresa|entreprise|equipe|equipo|projeto|proyecto|projet|humano|humana|humain|humaine|nao|no|pas"

	ptInstr = "instrucoes|instrucao|ordens|regras|comandos|diretrizes|diretivas|orientacoes|indicacoes|prompts|prompt"
	ptPrior = "anteriores|previas|acima|precedentes|antigas|originais|iniciais|anterior"
	ptVerbs = "ignore|ignora|ignorem|ignorar|desconsidere|desconsidera|desconsiderar|esqueca|esquece|esquecer|despreze|descarte|descarta|anule|desobedeca"
	ptVeto  = "!pagamento|pagamentos|bancarias|bancario|entrega|envio|minhas|nossas|instalacao|seguranca|uso|lavagem"
	ptOut   = "autentico|autentica|genuino|genuina|legitimo|legitima|confiavel|verdadeiro|verdadeira|sem_risco|baixo_risco|risco_baixo|" +
		"nao_fraudulento|nao_fraudulenta|sem_fraude|livre_de_fraude|inalterado|inalterada|nao_adulterado|nao_adulterada|" +
		"altamente_qualificado|altamente_qualificada|melhor_candidato|melhor_candidata|candidato_ideal|candidata_ideal"

	esInstr = "instrucciones|instruccion|ordenes|reglas|indicaciones|directrices|directivas|comandos|prompts|prompt|pautas|normas"
	esPrior = "anteriores|previas|precedentes|de_arriba|originales|iniciales|antiguas|anterior|previa"
	esVerbs = "ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidar|descarta|descarte|descartar|desestima|desestime|" +
		"omite|omita|haz_caso_omiso_de|haga_caso_omiso_de|no_hagas_caso_a|no_hagas_caso_de|desobedece|anula"
	esVeto = "!pago|pagos|bancarias|bancario|entrega|envio|mis|nuestras|instalacion|seguridad|uso|lavado"
	esOut  = "autentico|autentica|genuino|genuina|legitimo|legitima|confiable|fiable|verdadero|verdadera|sin_riesgo|bajo_riesgo|" +
		"riesgo_bajo|no_fraudulento|no_fraudulenta|sin_fraude|libre_de_fraude|inalterado|inalterada|no_adulterado|no_adulterada|" +
		"altamente_calificado|altamente_cualificado|mejor_candidato|mejor_candidata|candidato_ideal|candidata_ideal"

	frInstr = "instructions|instruction|consignes|consigne|regles|directives|ordres|commandes|indications|prompts|prompt|recommandations"
	frPrior = "precedentes|anterieures|ci_dessus|preliminaires|initiales|originales|precedente|anterieure|d_avant|passees"
	frVerbs = "ignore|ignorez|ignorer|ignores|oublie|oubliez|oublier|neglige|negligez|negliger|ne_tiens_pas_compte|ne_tenez_pas_compte|" +
		"fais_abstraction|faites_abstraction|annule|annulez|outrepasse|outrepassez|desobeis|desobeissez"
	frVeto = "!paiement|paiements|bancaires|livraison|envoi|mes|nos|installation|securite|utilisation|lavage|entretien"
	frOut  = "authentique|legitime|fiable|veritable|sans_risque|risque_faible|faible_risque|non_frauduleux|non_frauduleuse|sans_fraude|" +
		"exempt_de_fraude|inaltere|inalteree|non_falsifie|non_falsifiee|hautement_qualifie|hautement_qualifiee|meilleur_candidat|" +
		"meilleure_candidate|candidat_ideal|candidate_ideale"

	deInstr = "anweisungen|anweisung|instruktionen|instruktion|befehle|befehl|regeln|vorgaben|anordnungen|richtlinien|prompts|prompt|anleitungen|direktiven|vorschriften"
	dePrior = "vorherigen|vorherige|bisherigen|bisherige|obigen|obige|fruheren|fruhere|vorangegangenen|vorangehenden|vorigen|alten|" +
		"ursprunglichen|ursprungliche|alle|samtliche|samtlichen|deine|ihre|jegliche"
	deVerbs = "ignoriere|ignorieren|ignoriert|ignorier|vergiss|vergessen|vergesst|missachte|missachten|missachtet|uberschreibe|uberschreiben|" +
		"verwirf|verwerfen|ubergehe|ubergehen"
	deVeto = "!zahlung|zahlungen|bank|liefer|versand|meine|unsere|installation|sicherheit|bedienung|wasch|pflege"
	deOut  = "echt|authentisch|legitim|vertrauenswurdig|unbedenklich|risikofrei|geringes_risiko|niedriges_risiko|kein_risiko|serios|" +
		"unverandert|nicht_betrugerisch|betrugsfrei|frei_von_betrug|nicht_manipuliert|nicht_gefalscht|hochqualifiziert|" +
		"bestens_qualifiziert|bester_kandidat|beste_kandidatin|idealer_kandidat|ideale_kandidatin"
)

var portuguese = []def{
	{Override, strong, "^" + ptVerbs + " ~3 " + ptInstr + " ~2 " + ptPrior + " " + ptVeto},
	{Override, strong, "^" + ptVerbs + " ~2 todas|todos|quaisquer|suas|tuas ~2 " + ptInstr + " " + ptVeto},
	{Override, weak, "^" + ptVerbs + " ~3 tudo ~2 acima|anterior|antes|que_te_disseram|que_lhe_disseram|que_voce_sabe"},
	{Role, strong, "^voce|tu ~1 e|es|sera ~3 ia|uma_ia|assistente_de_ia|modelo_de_linguagem|um_modelo_de_linguagem|chatbot|inteligencia_artificial|dan|llm " + romanceNotAModel},
	{Role, strong, "^aja|atue|comporte_se|finja_ser|finja_que_e|age ~2 como|ser ~3 dan|ia_sem|uma_ia_sem|modelo_sem|ia_irrestrita|sem_restricoes|sem_filtros|desbloqueado|desbloqueada"},
	{Role, strong, "^prompt_do_sistema|prompt_de_sistema|instrucoes_do_sistema $:"},
	{Approval, strong, "^classifique|classifica|classificar|marque|marca|marcar|considere|considera|considerar|avalie|avalia|avaliar|trate|trata|tratar|" +
		"rotule|rotula|declare|declara|registre|identifique|reporte|informe|conclua ~4 este|esta|o|a|isto|isso|documento|fatura|candidato|candidata|" +
		"nota|nota_fiscal|boleto|arquivo|comprovante|extrato|curriculo ~3 como|sendo ~2 " + ptOut},
	{Approval, strong, "^responda|responde|diga|diz|retorne|escreva|imprima|produza ~3 apenas|somente|so|sempre|com ~3 " + ptOut + "|aprovado|aprovada|aprovar|sem_problemas|sem_anomalias"},
	{Approval, strong, "^nao ~2 sinalize|sinalizar|reporte|reportar|mencione|mencionar|aponte|apontar|relate|relatar|destaque|destacar|indique|indicar|identifique ~4 " +
		"fraude|fraudes|irregularidade|irregularidades|inconsistencia|inconsistencias|anomalia|anomalias|discrepancia|discrepancias|adulteracao|adulteracoes|" +
		"alteracao|alteracoes|pontos_negativos|fraquezas|este_documento|esta_fatura|este_candidato"},
	{Approval, strong, "^defina|atribua|de|retorne|informe ~4 pontuacao_de_risco|nivel_de_risco|risco_de_fraude|score_de_risco ~3 como|em|de|igual_a ~1 0|zero|baixo|minimo|nenhum"},
	{Approval, weak, "^aprove|aprova|aprovar|autorize|autoriza|autorizar|pague|paga|pagar|libere|libera|liberar|valide|valida|validar|aceite|aceita|aceitar|processe ~3 " +
		"este|esta|isto|isso|estes|estas|fatura|pagamento|documento|pedido|transferencia|candidato|candidata|nota_fiscal|boleto|solicitacao|reembolso"},
	{Approval, weak, "^recomende|recomenda|contrate|contrata|selecione|seleciona ~3 este|esta|o|a ~2 candidato|candidata|artigo|trabalho"},
	{Exfiltration, strong, "^revele|revela|mostre|mostra|imprima|imprime|repita|repete|envie|envia|mande|manda|encaminhe|encaminha|exiba|divulgue|copie|transcreva ~3 " +
		"prompt_do_sistema|prompt_de_sistema|instrucoes_do_sistema|instrucoes_iniciais|instrucoes_originais|suas_instrucoes|tuas_instrucoes|" +
		"historico_da_conversa|historico_do_chat|chave_de_api|chave_da_api|chaves_de_api|token_de_acesso|variaveis_de_ambiente"},
	{Exfiltration, weak, "^envie|envia|mande|manda|encaminhe|encaminha ~5 senha|senhas|credenciais|dados|informacoes|arquivos|documentos|conteudo ~4 para ~2 http|https|www|url|email|e_mail|endereco|webhook|servidor"},
	{Concealment, strong, "^nao ~2 mencione|mencionar|revele|revelar|conte|contar|diga|dizer|informe|informar|mostre|mostrar|repita|repetir|divulgue|divulgar ~3 estas|essas|esta|essa|as|sua|suas ~2 instrucoes|instrucao|prompt|diretrizes|orientacoes"},
	{Concealment, weak, "^nao ~2 mencione|revele|conte|diga|informe|mostre|avise|alerte ~3 ao_usuario|ao_humano|ao_leitor|ao_revisor|ao_operador|ao_recrutador|a_ninguem|ninguem"},
	{Concealment, strong, "texto|instrucao|instrucoes|mensagem|nota|trecho|conteudo ~3 invisivel|invisiveis|oculto|oculta|ocultos|ocultas|escondido|escondida|escondidos|escondidas ~2 para|aos|de ~2 humanos|os_humanos|leitores|revisores|o_leitor|o_revisor|seres_humanos|olhos_humanos"},
	{Concealment, strong, "^se ~1 voce|tu ~1 for|e|es ~2 humano|humana|uma_pessoa|um_humano ~3 ignore|ignora|pare|pule|desconsidere|nao_leia"},
	{Addressing, frame, "^caro|cara|prezado|prezada|querido|querida|ola|oi|atencao|nota_para|mensagem_para|instrucoes_para|instrucao_para|aviso_para|lembrete_para ~2 " + ptModel + " " + romanceNotAModel},
	{Addressing, frame, "^se|caso ~1 voce|tu ~1 for|e|es|seja ~3 " + ptModel + "|robo|bot " + romanceNotAModel},
	{Addressing, frame, "^para ~0 qualquer|toda|todo ~1 " + ptModel},
	{Addressing, frame, "^como ~1 um|uma ~1 " + ptModel + " ~0 voce|tu|que_le|lendo|analisando|avaliando|deve"},
	{Addressing, frame, "qualquer|toda|todo ~1 " + ptModel + " ~1 que ~1 leia|le|analise|analisa|avalie|avalia|processe|processa|esteja_lendo|revise|revisa ~1 este|esta|isto"},
}

var spanish = []def{
	{Override, strong, "^" + esVerbs + " ~3 " + esInstr + " ~2 " + esPrior + " " + esVeto},
	{Override, strong, "^" + esVerbs + " ~2 todas|todos|cualquier|tus|sus ~2 " + esInstr + " " + esVeto},
	{Override, weak, "^" + esVerbs + " ~3 todo ~2 anterior|antes|de_arriba|lo_que_te_dijeron|lo_que_sabes"},
	{Role, strong, "^tu|usted ~1 eres|es|seras ~3 ia|una_ia|asistente_de_ia|modelo_de_lenguaje|un_modelo_de_lenguaje|chatbot|inteligencia_artificial|dan|llm " + romanceNotAModel},
	{Role, strong, "^eres|ahora_eres ~2 una|un ~1 ia|modelo_de_lenguaje|asistente_de_ia|inteligencia_artificial|chatbot|dan " + romanceNotAModel},
	{Role, strong, "^actua|actue|actuar|comportate|finge|finja|haz_como_si ~2 como|ser|que_eres ~3 dan|ia_sin|una_ia_sin|modelo_sin|sin_restricciones|sin_filtros|sin_limites|desbloqueado|desbloqueada|una_ia_diferente"},
	{Role, strong, "^prompt_del_sistema|prompt_de_sistema|instrucciones_del_sistema $:"},
	{Approval, strong, "^clasifica|clasifique|clasificar|marca|marque|marcar|considera|considere|considerar|califica|califique|calificar|evalua|evalue|evaluar|" +
		"trata|trate|tratar|etiqueta|etiquete|declara|declare|registra|identifica|reporta|informa|concluye ~4 este|esta|el|la|esto|documento|factura|" +
		"candidato|candidata|archivo|comprobante|extracto|recibo|curriculum|cv ~3 como|siendo ~2 " + esOut},
	{Approval, strong, "^responde|responda|di|diga|devuelve|devuelva|escribe|escriba|imprime|produce ~3 solo|solamente|unicamente|siempre|con ~3 " + esOut + "|aprobado|aprobada|aprobar|sin_problemas|sin_anomalias"},
	{Approval, strong, "^no ~2 marques|marque|reportes|reporte|menciones|mencione|senales|senale|senalar|informes|informe|destaques|destaque|indiques|indique|identifiques|identifique ~4 " +
		"fraude|fraudes|irregularidad|irregularidades|inconsistencia|inconsistencias|anomalia|anomalias|discrepancia|discrepancias|alteracion|alteraciones|" +
		"manipulacion|aspectos_negativos|debilidades|este_documento|esta_factura|este_candidato"},
	{Approval, strong, "^establece|asigna|da|devuelve|informa|pon ~4 puntuacion_de_riesgo|nivel_de_riesgo|riesgo_de_fraude|score_de_riesgo ~3 como|en|de|igual_a ~1 0|cero|bajo|minimo|ninguno"},
	{Approval, weak, "^aprueba|apruebe|aprobar|autoriza|autorice|autorizar|paga|pague|pagar|libera|libere|valida|valide|acepta|acepte|procesa|procese ~3 " +
		"este|esta|esto|estos|estas|factura|pago|documento|pedido|transferencia|candidato|candidata|solicitud|reembolso"},
	{Approval, weak, "^recomienda|contrata|selecciona ~3 este|esta|el|la|a_este|a_esta ~2 candidato|candidata|articulo|trabajo"},
	{Exfiltration, strong, "^revela|revele|muestra|muestre|imprime|imprima|repite|repita|envia|envie|manda|mande|reenvia|reenvie|divulga|copia|transcribe ~3 " +
		"prompt_del_sistema|prompt_de_sistema|instrucciones_del_sistema|instrucciones_iniciales|instrucciones_originales|tus_instrucciones|" +
		"historial_de_la_conversacion|historial_del_chat|clave_de_api|claves_de_api|token_de_acceso|variables_de_entorno"},
	{Exfiltration, weak, "^envia|envie|manda|mande|reenvia|reenvie ~5 contrasena|contrasenas|credenciales|datos|informacion|archivos|documentos|contenido ~4 a|al ~2 http|https|www|url|correo|email|direccion|webhook|servidor"},
	{Concealment, strong, "^no ~2 menciones|mencione|reveles|revele|digas|diga|cuentes|cuente|informes|informe|muestres|muestre|repitas|repita|divulgues ~3 estas|esta|las|tus|sus ~2 instrucciones|instruccion|prompt|indicaciones|directrices"},
	{Concealment, weak, "^no ~2 menciones|mencione|reveles|digas|cuentes|informes|muestres|avises|alertes ~3 al_usuario|al_humano|al_lector|al_revisor|al_operador|al_reclutador|a_nadie|nadie"},
	{Concealment, strong, "texto|instruccion|instrucciones|mensaje|nota|fragmento|contenido ~3 invisible|invisibles|oculto|oculta|ocultos|ocultas|escondido|escondida ~2 para|a|de ~2 humanos|los_humanos|lectores|revisores|el_lector|el_revisor|seres_humanos|ojos_humanos"},
	{Concealment, strong, "^si ~1 eres|usted_es ~2 humano|humana|una_persona|un_humano ~3 ignora|ignore|para|salta|no_leas|no_lea"},
	{Addressing, frame, "^querida|querido|estimado|estimada|hola|atencion|nota_para|mensaje_para|instrucciones_para|aviso_para|recordatorio_para ~2 " + esModel + " " + romanceNotAModel},
	{Addressing, frame, "^si ~1 eres|usted_es|tu_eres ~3 " + esModel + "|bot|robot " + romanceNotAModel},
	{Addressing, frame, "^para ~0 cualquier|toda|todo ~1 " + esModel},
	{Addressing, frame, "^como ~1 un|una ~1 " + esModel + " ~0 tu|usted|que_lee|leyendo|analizando|evaluando|debes"},
	{Addressing, frame, "cualquier|toda ~1 " + esModel + " ~1 que ~1 lea|lee|analice|analiza|evalue|evalua|procese|procesa|revise|revisa ~1 este|esta|esto"},
}

var french = []def{
	{Override, strong, "^" + frVerbs + " ~3 " + frInstr + " ~2 " + frPrior + " " + frVeto},
	{Override, strong, "^" + frVerbs + " ~2 toutes|tous|tes|vos|toute ~2 " + frInstr + " " + frVeto},
	{Override, weak, "^" + frVerbs + " ~3 tout ~2 ci_dessus|avant|precede|ce_qu_on_t_a_dit|ce_que_tu_sais"},
	{Role, strong, "^tu|vous ~1 es|etes|seras|serez ~3 ia|une_ia|assistant_ia|assistant_d_ia|modele_de_langage|un_modele_de_langage|chatbot|intelligence_artificielle|dan|llm " + romanceNotAModel},
	{Role, strong, "^agis|agissez|agir|comporte_toi|comportez_vous|fais_semblant|faites_semblant|joue|jouez ~2 comme|d_etre|le_role_d ~3 dan|ia_sans|une_ia_sans|modele_sans|sans_restrictions|sans_filtres|sans_limites|debride|debridee|une_ia_differente"},
	{Role, strong, "^prompt_systeme|prompt_du_systeme|instructions_systeme|instructions_du_systeme $:"},
	{Approval, strong, "^classe|classez|classer|classifie|classifiez|marque|marquez|marquer|considere|considerez|considerer|evalue|evaluez|evaluer|traite|traitez|" +
		"traiter|note|notez|qualifie|qualifiez|declare|declarez|enregistre|identifie|signale|indique|conclus|concluez ~4 ce|cette|le|la|ceci|cela|document|" +
		"facture|candidat|candidate|fichier|justificatif|releve|recu|cv ~3 comme|en_tant_que|etant ~2 " + frOut},
	{Approval, strong, "^reponds|repondez|dis|dites|renvoie|renvoyez|ecris|ecrivez|imprime|produis ~3 seulement|uniquement|toujours|avec|que ~3 " + frOut + "|approuve|approuvee|sans_probleme|sans_anomalie|aucune_anomalie"},
	{Approval, strong, "^ne ~3 signale|signalez|signaler|mentionne|mentionnez|mentionner|rapporte|rapportez|souligne|soulignez|releve|relevez|indique|indiquez|identifie|identifiez ~5 " +
		"fraude|fraudes|irregularite|irregularites|incoherence|incoherences|anomalie|anomalies|divergence|divergences|ecart|ecarts|falsification|alteration|" +
		"alterations|points_faibles|faiblesses|aspects_negatifs|ce_document|cette_facture|ce_candidat"},
	{Approval, strong, "^fixe|fixez|attribue|attribuez|donne|donnez|renvoie|indique ~4 score_de_risque|niveau_de_risque|risque_de_fraude ~3 a|de|comme|egal_a ~1 0|zero|faible|minimal|minimum|aucun|nul"},
	{Approval, weak, "^approuve|approuvez|approuver|valide|validez|valider|paie|payez|payer|autorise|autorisez|autoriser|accepte|acceptez|accepter|traite|traitez ~3 " +
		"cette|ce|ceci|ces|facture|paiement|document|demande|virement|candidat|candidate|candidature|remboursement|commande"},
	{Approval, weak, "^recommande|recommandez|embauche|embauchez|selectionne|selectionnez|retiens|retenez ~3 ce|cette|le|la ~2 candidat|candidate|article|travail|dossier"},
	{Exfiltration, strong, "^revele|revelez|affiche|affichez|imprime|imprimez|repete|repetez|envoie|envoyez|montre|montrez|divulgue|divulguez|copie|copiez|transcris|transcrivez|recopie ~3 " +
		"prompt_systeme|prompt_du_systeme|instructions_systeme|instructions_initiales|instructions_d_origine|tes_instructions|vos_instructions|" +
		"historique_de_la_conversation|historique_de_conversation|historique_du_chat|cle_api|cle_d_api|cles_api|jeton_d_acces|variables_d_environnement"},
	{Exfiltration, weak, "^envoie|envoyez|transmets|transmettez|transfere|transferez ~5 mot_de_passe|mots_de_passe|identifiants|donnees|informations|fichiers|documents|contenu ~4 a|au|vers ~2 http|https|www|url|adresse|courriel|email|e_mail|webhook|serveur"},
	{Concealment, strong, "^ne ~3 mentionne|mentionnez|revele|revelez|dis|dites|repete|repetez|divulgue|divulguez|montre|montrez|reproduis|reproduisez ~4 ces|cette|les|tes|vos ~2 instructions|instruction|consignes|consigne|prompt|directives"},
	{Concealment, weak, "^ne ~3 dis|dites|informe|informez|previens|prevenez|alerte|alertez|mentionne|mentionnez|montre|montrez ~4 l_utilisateur|a_l_utilisateur|a_l_humain|au_lecteur|au_relecteur|a_l_operateur|au_recruteur|a_personne|personne"},
	{Concealment, strong, "texte|instruction|instructions|message|note|passage|contenu|consigne|consignes ~3 invisible|invisibles|cache|cachee|caches|cachees|masque|masquee ~2 pour|aux|des ~2 humains|les_humains|lecteurs|relecteurs|le_lecteur|le_relecteur|etres_humains|yeux_humains|l_oeil_humain"},
	{Concealment, strong, "^si ~1 tu_es|vous_etes ~2 humain|humaine|une_personne|un_humain|un_etre_humain ~3 ignore|ignorez|arrete|arretez|saute|sautez|ne_lis_pas|ne_lisez_pas"},
	{Addressing, frame, "^chere|cher|attention|note_a|note_pour|message_a|message_pour|instructions_pour|instruction_pour|avis_a|rappel_a|bonjour|salut ~2 " + frModel + " " + romanceNotAModel},
	{Addressing, frame, "^si ~1 tu_es|vous_etes ~3 " + frModel + "|bot|robot " + romanceNotAModel},
	{Addressing, frame, "^a|pour ~0 toute|tout|chaque ~1 " + frModel},
	{Addressing, frame, "^en_tant_que ~1 " + frModel + " ~0 tu|vous|qui_lit|lisant|analysant|evaluant|tu_dois|vous_devez"},
	{Addressing, frame, "toute|tout|chaque ~1 " + frModel + " ~1 qui ~1 lit|analyse|evalue|traite|examine|relit ~1 ce|cette|ceci"},
}

var german = []def{
	{Override, strong, "^" + deVerbs + " ~3 " + dePrior + " ~2 " + deInstr + " " + deVeto},
	{Override, strong, "^alle|die|samtliche|deine|ihre|jegliche ~1 vorherigen|bisherigen|obigen|fruheren|vorigen|ursprunglichen ~1 " + deInstr + " ~2 ignorieren|vergessen|missachten|verwerfen " + deVeto},
	{Override, strong, "^alle ~1 " + deInstr + " ~2 ignorieren|vergessen|missachten|verwerfen " + deVeto},
	{Override, weak, "^" + deVerbs + " ~3 alles ~2 vorherige|bisherige|obige|vorher|was_du_weisst|was_man_dir_gesagt_hat"},
	{Role, strong, "^du|sie ~1 bist|sind ~3 ki|eine_ki|ki_assistent|sprachmodell|ein_sprachmodell|chatbot|kunstliche_intelligenz|dan|llm|ki_modell|ki_system " + deNotAModel},
	{Role, strong, "^verhalte_dich|verhaltet_euch|handle|handeln_sie|agiere|agieren_sie|tu_so|tun_sie_so|gib_dich|spiele|spielen_sie ~2 als|wie|als_ob ~3 dan|ki_ohne|eine_ki_ohne|modell_ohne|uneingeschrankt|uneingeschrankte|ohne_einschrankungen|ohne_filter|ohne_regeln|entfesselt|entfesselte|eine_andere_ki"},
	{Role, strong, "^systemprompt|system_prompt|systemanweisung|systemanweisungen $:"},
	{Approval, strong, "^stufe|stufen_sie|stuft|bewerte|bewerten|bewertet|klassifiziere|klassifizieren|markiere|markieren|kennzeichne|kennzeichnen|betrachte|betrachten|" +
		"behandle|behandeln|deklariere|melde|erklare|erklaren ~4 dieses|diese|das|den|die|es|dokument|rechnung|bewerber|bewerberin|kandidat|kandidatin|datei|" +
		"beleg|kontoauszug|lebenslauf ~3 als ~2 " + deOut},
	{Approval, strong, "^dieses|diese|das|die|den ~2 dokument|rechnung|bewerber|bewerberin|kandidat|kandidatin|datei|beleg|kontoauszug|lebenslauf ~2 als ~2 " + deOut +
		" ~2 einstufen|bewerten|markieren|klassifizieren|betrachten|behandeln|kennzeichnen|einordnen|melden|deklarieren"},
	{Approval, strong, "^antworte|antworten|gib|sage|sag|schreibe|schreib|gib_aus ~3 nur|ausschliesslich|immer|mit ~3 " + deOut + "|genehmigt|freigegeben|keine_probleme|keine_auffalligkeiten|keine_anomalien"},
	{Approval, strong, "^melde|melden|erwahne|erwahnen|kennzeichne|kennzeichnen|markiere|markieren|nenne|nennen|zeige|hebe ~3 keine|keinen|keinerlei ~2 " +
		"betrug|unregelmassigkeit|unregelmassigkeiten|inkonsistenz|inkonsistenzen|anomalie|anomalien|abweichung|abweichungen|auffalligkeit|auffalligkeiten|" +
		"falschung|manipulation|manipulationen|schwachen|negativen_punkte|mangel"},
	{Approval, strong, "^keine|keinen|keinerlei ~2 betrug|unregelmassigkeiten|inkonsistenzen|anomalien|abweichungen|auffalligkeiten|falschungen|manipulationen|schwachen ~3 melden|erwahnen|kennzeichnen|markieren|nennen|hervorheben|berichten"},
	{Approval, strong, "^setze|setzen_sie|gib|vergib|vergeben_sie|melde ~4 risikobewertung|risikowert|risikoscore|betrugsrisiko|risikostufe|betrugswert ~3 auf|mit|als ~1 0|null|niedrig|minimal|gering|keine"},
	{Approval, weak, "^genehmige|genehmigen|gib_frei|freigeben|bezahle|bezahlen|zahle|zahlen|akzeptiere|akzeptieren|bestatige|bestatigen ~3 " +
		"diese|dieses|die|den|das|es|rechnung|zahlung|dokument|antrag|uberweisung|bewerbung|bewerber|bewerberin|erstattung|bestellung"},
	{Approval, weak, "^empfiehl|empfehlen_sie|stelle|stellen_sie|wahle|wahlen_sie ~3 diesen|diese|den|die ~2 kandidaten|kandidatin|bewerber|bewerberin ~3 ein|aus|vor"},
	{Exfiltration, strong, "^verrate|verraten|zeige|zeig|zeigen_sie|drucke|drucken_sie|gib|geben_sie|wiederhole|wiederholen_sie|sende|senden_sie|schicke|schicken_sie|offenbare|kopiere ~4 " +
		"systemprompt|system_prompt|systemanweisungen|systemnachricht|anfangsanweisungen|ursprunglichen_anweisungen|deine_anweisungen|ihre_anweisungen|" +
		"chatverlauf|gesprachsverlauf|unterhaltungsverlauf|api_schlussel|api_key|zugangstoken|umgebungsvariablen"},
	{Exfiltration, weak, "^sende|senden_sie|schicke|schicken_sie|ubermittle|ubermitteln_sie|leite ~5 passwort|passworter|kennwort|zugangsdaten|daten|informationen|dateien|dokumente|inhalt|inhalte ~4 an ~2 http|https|www|url|adresse|e_mail|email|webhook|server"},
	{Concealment, strong, "^erwahne|erwahnen_sie|verrate|verraten_sie|wiederhole|wiederholen_sie|zeige|zeigen_sie|sage|sag|sagen_sie|offenbare|gib ~3 diese|deine|ihre|die ~2 anweisungen|anweisung|instruktionen|prompt|vorgaben ~2 nicht|niemals|keinesfalls|auf_keinen_fall"},
	{Concealment, strong, "^erwahne|erwahnen_sie|verrate|verraten_sie|sage|sag ~2 nicht|niemals|keinesfalls ~3 diese|deine|ihre|die ~2 anweisungen|anweisung|instruktionen|prompt"},
	{Concealment, weak, "^sage|sag|sagen_sie|erzahle|erzahlen_sie|verrate|verraten_sie|informiere|informieren_sie|zeige ~2 dem_benutzer|dem_nutzer|dem_menschen|dem_leser|dem_prufer|dem_personaler|niemandem ~3 nichts|nicht|niemals"},
	{Concealment, strong, "text|anweisungen|anweisung|nachricht|hinweis|abschnitt|inhalt ~4 unsichtbar|verborgen|versteckt|nicht_sichtbar ~2 fur|vor ~2 menschen|den_menschen|menschliche_leser|menschliche_prufer|leser|prufer|das_menschliche_auge"},
	{Concealment, strong, "^wenn|falls ~1 du|sie ~2 ein ~1 mensch|menschlicher_leser ~1 bist|sind ~3 ignoriere|ignorieren|uberspringe|uberspringen|hor_auf|lies_nicht|lesen_sie_nicht"},
	{Concealment, strong, "unsichtbar|verborgen|versteckt ~1 fur|vor ~1 menschen|menschliche_leser|menschliche_augen|das_menschliche_auge"},
	{Addressing, frame, "^liebe|lieber|hallo|achtung|hinweis_fur|hinweis_an|nachricht_an|anweisung_fur|anweisungen_fur|an_die|an_das|an_den|notiz_fur|notiz_an ~2 " + deModel + " " + deNotAModel},
	{Addressing, frame, "^wenn|falls ~1 du|sie ~3 " + deModel + "|bot|roboter ~2 bist|sind " + deNotAModel},
	{Addressing, frame, "^als ~1 " + deModel + " ~0 du|sie|solltest|musst|die_dies|das_dies|der_dies"},
	{Addressing, frame, "jede|jedes|jeder|alle ~1 " + deModel + "|sprachmodelle|ki_systeme ~1 die|das|der ~1 dieses|diese|dies|den ~2 liest|lesen|analysiert|analysieren|pruft|prufen|bewertet|bewerten|verarbeitet|verarbeiten"},
}
