/**
 * What a phrase cut from a sentence must not be to become a graph entity: a pronoun or clause piece, a bare generic
 * noun or qualifier, a fragment of a longer phrase, or the paper's analysis rather than a thing it made or measured.
 */
const STOP_PHRASES = /^(?:the|a|an|this|that|these|those|it|they|which|samples?|sample|results?|figure|fig|table)$/i;
// A phrase with a pronoun, modal or clause word is a piece of a clause ("we calculated the changes", "this can"),
// not a thing; a bare generic noun ("changes", "reduction") names no effect on its own.
const CLAUSE_WORDS =
  /\b(?:we|our|this|that|these|those|it|its|they|their|can|could|may|might|will|would|should|which|who|also|then|thus|here|there|is|are|was|were|be|been|has|have|had|not|as|than|so|such|one|first|other)\b/i;
// Bare generic nouns ("sign", "way", "information") and qualifiers ("high", "best", "average") name nothing a
// graph can hold: as entities they became hubs, and embedding clustering merged "high", "low" and "best" into one.
const GENERIC =
  /^(?:changes?|reductions?|increases?|decreases?|improvements?|differences?|effects?|formation|growth|surface|transition|shift|upshifting|loss|gain|variations?|generation|enhancement|dropping|increasing|decreasing|strong|weak|middle|fluctuations?|results?|more|less|higher|lower|determination|signs?|ways?|views?|information|cases?|points?|parts?|order|facts?|aspects?|reasons?|roles?|manner|means|levels?|degree|kinds?|types?|numbers?|amounts?|values?|data|things?|examples?|ranges?|trends?|properties|property|materials?|systems?|conditions?|factors?|features?|issues?|problems?|attention|interest|importance|contribution|behaviou?r|nature|origin|presence|absence|existence|possibility|evidence|agreement|comparison|terms?|respect|basis|details?|steps?|stages?|periods?|times?|areas?|regions?|sides?|high|low|best|better|worse|worst|good|poor|excellent|average|large|small|big|new|novel|same|different|similar|various|several|many|few|main|major|minor|significant|important|typical|possible|present|previous|current|overall|total|whole|further|additional|respective|corresponding|following|above|below|latter|former|remarkable|superior|inferior|optimal|maximum|minimum|long|short|stable|unstable)$/i;
// A phrase that begins with a preposition or ends with a conjunction is a piece cut from a longer one ("into the
// blend", "ion conduction and").
const FRAGMENT =
  /^(?:of|on|in|into|to|from|with|by|for|at|between|under|over|through|via|based|achieve|only|itself|both|each)\b|\b(?:and|or|but|subsequently|thereby|therefore|hence|whereas|while|the|a|an|of|with|without)$/i;
// "least squares fits", "Rietveld fitting": the analysis, not a thing the paper made or measured.
const ANALYSIS_TAIL = /\b(?:squares|fits?|fitting|refinements?)$/i;

/** Whether a phrase (without its article) names nothing a graph can hold. */
export function namesNoThing(t: string): boolean {
  if (t.length < 2 || STOP_PHRASES.test(t) || CLAUSE_WORDS.test(t) || GENERIC.test(t) || FRAGMENT.test(t) || ANALYSIS_TAIL.test(t)) return true;
  // "same effect", "similar behaviour", "high values": generic words together still name nothing.
  return t.split(/\s+/).every((w) => GENERIC.test(w));
}

/** Text of these guards, for the graph extractor's version stamp. */
export const phraseGuardsSource = (): string => [STOP_PHRASES, CLAUSE_WORDS, GENERIC, FRAGMENT, ANALYSIS_TAIL].map((r) => r.source).join('\n');
