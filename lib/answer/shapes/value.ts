import { formatNumber } from '../../common/format.ts';
import { propertyEntry } from '../../structure/properties.ts';
import { fromCanonical, lookupUnit, parseQuantities } from '../../structure/quantities.ts';
import { bare, paperName, quote, sentenceAt } from './text.ts';
import { type AnswerShapeComposer, draft } from './types.ts';

const ATMOSPHERE =
  /\b(?:in|under)\s+((?:humidified |dry |flowing |pure |static )?(?:air|argon|Ar|N2|nitrogen|H2|hydrogen|O2|oxygen|vacuum|CO2|methane|CH4|ammonia|NH3)(?:\/[A-Za-z0-9]+)?)\b/;

/** The unit a question asks its value in ("… in mW/cm2?", "… in K?"), when it names one of the asked dimension. */
export function askedUnit(question: string, dimension: string): string | null {
  const m = /\b(?:in|as|using)\s+([^\s?,;]+(?:\s*[/·]\s*[^\s?,;]+)?)\s*\??\s*$/i.exec(question.trim());
  if (!m) return null;
  const spec = lookupUnit(m[1]);
  return spec && spec.dimension === dimension ? m[1] : null;
}

/**
 * A value question: the value with its unit and the conditions its sentence states (temperature, pressure,
 * atmosphere …), converted to the unit the question asked in, cited to the sentence that states it.
 */
export const valueShape: AnswerShapeComposer = {
  name: 'value',
  compose(result) {
    const v = result.value;
    if (!v || result.analysis.intent !== 'value') return null;
    const e = result.evidence.find((x) => x.id === v.evidenceId);
    if (!e) return null;
    const sentence = sentenceAt(e, Math.max(0, e.text.indexOf(v.text)));
    const conditions = parseQuantities(sentence)
      .filter((q) => q.dimension !== v.dimension && !q.text.includes(v.text))
      .map((q) => q.text);
    const atmosphere = ATMOSPHERE.exec(sentence)?.[1];
    if (atmosphere) conditions.push(`in ${atmosphere}`);
    const property = result.analysis.properties.map((k) => propertyEntry(k)?.label ?? k)[0];
    const subject = [property, result.analysis.entityWords[0] ? `of ${result.analysis.entityWords[0]}` : ''].filter(Boolean).join(' ');
    const unit = askedUnit(result.question, v.dimension);
    const spec = unit ? lookupUnit(unit) : null;
    const converted = spec ? ` (${v.canonical.map((x) => formatNumber(fromCanonical(x, spec))).join('–')} ${unit})` : '';
    const lead = `${subject ? `${subject[0].toUpperCase()}${subject.slice(1)}: ` : 'The value: '}${v.text}${converted}${conditions.length ? `, at ${conditions.join(', ')}` : ''}.`;
    return {
      shape: 'value',
      sentences: [draft(lead, [e.id]), draft(`${paperName(e)} states: ${quote(bare(sentence))}.`, [e.id])],
    };
  },
};
