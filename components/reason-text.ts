/** The abstention reason codes in words, for every view that shows why a question was not answered. */
export const reasonText: Record<string, string> = {
  'no-evidence': 'nothing in the corpus matches',
  'no-matching-entity': 'a material named is not in the corpus or not in the best paper',
  'conditions-not-met': 'the best paper does not state the values or conditions asked for',
  'unknown-paper': 'no paper has the quoted title',
  'unmatched-terms': 'the best paper lacks the words that make the question specific',
  'unmatched-method': 'the best paper does not use the technique the question names',
  'low-score': 'the evidence is weak',
  'out-of-scope': 'the question is about something outside the materials literature held here',
  'model-declined': 'the model found no answer in the evidence',
};
