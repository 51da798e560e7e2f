import { quantitiesOf, replaceSpan, rewriteQuantity } from '../text.ts';
import type { Transform } from '../types.ts';
import { sameQuantities } from './checks.ts';

/** A temperature in the other scale: 550 °C → 823 K, 1073 K → 800 °C (not below 0 °C: nobody writes −234 °C for 39 K). */
export const temperatureScale: Transform = {
  name: 'temperature-scale',
  kind: 'invariant',
  family: 'value',
  describe: 'a temperature in °C written in K or the reverse',
  apply(question) {
    for (const q of quantitiesOf(question)) {
      if (q.dimension !== 'temperature') continue;
      const kelvin = q.canonicalUnit === 'K' && /^K$/.test(q.unit);
      if (kelvin && q.values.some((v) => v < 273.15)) continue;
      const text = kelvin
        ? rewriteQuantity(q, (_w, v) => String(Math.round(v - 273.15)), '°C')
        : rewriteQuantity(q, (_w, v) => String(Math.round(v + 273.15)), 'K');
      const out = replaceSpan(question, q.start, q.end, text);
      if (sameQuantities(question, out)) return out;
    }
    return null;
  },
};
