import { describe, expect, it } from 'vitest';
import { corpusOf, type FixturePaper, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from '../answer.ts';
import { type AbstentionModel, modelFor } from '../../retrieval/gate/abstention-model.ts';

const paper: FixturePaper = {
  id: 'lscf-cell',
  doi: '10.9999/lscf-cell',
  title: 'Metal-supported cells with LSCF cathodes',
  // The paper names 750 °C too (so retrieval does not refuse the question at 750 °C), but states no value there.
  paragraphs: [
    { text: 'The cell with an LSCF cathode reached a peak power density of 1.0 W cm−2 at 800 °C in humidified hydrogen.' },
    { text: 'The LSCF cathode was screen-printed and fired at 750 °C before the cell tests.' },
  ],
};

describe('a value question that states a temperature', () => {
  it('says when the value is stated at another temperature, as half an answer, at a lower confidence', async () => {
    const index = await indexOf(corpusOf([paper]));
    const asked = await answerQuestion(index, 'What is the peak power density of a cell with an LSCF cathode at 800 °C?');
    expect(asked.shape).toBe('value');
    expect(asked.sentences.map((s) => s.text).join(' ')).not.toMatch(/not at the/);
    const other = await answerQuestion(index, 'What is the peak power density of a cell with an LSCF cathode at 750 °C?');
    expect(other.shape).toBe('value');
    expect(other.sentences.at(-1)?.text).toBe('That value is stated at 800 °C, not at the 750 °C asked.');
    // Half of what was asked, as the answer gate reads it (lib/retrieval/gate/answer-confidence.ts), and shown lower
    // than the answer at the temperature asked.
    expect(other.gate?.signals.answered).toBe(0.5);
    expect(asked.gate?.signals.answered).toBe(1);
    expect(other.confidence).toBeLessThan(asked.confidence);
    // It says the evidence does not meet the temperature asked: shown below one half, naming it.
    expect(other.confidence).toBeLessThan(0.5);
    expect(other.unverified?.map((u) => u.asked)).toContain('750 °C');
  });

  it('reads a list of values against a list of temperatures pairwise, and answers with the value at the one asked', async () => {
    const gdc: FixturePaper = {
      id: 'gdc',
      doi: '10.9999/gdc',
      title: 'Ionic conduction in GDC electrolytes',
      paragraphs: [{ text: 'The ionic conductivities of the GDC electrolyte were 0.01, 0.025 and 0.054 S cm−1 at 500, 600 and 700 °C.' }],
    };
    const a = await answerQuestion(await indexOf(corpusOf([gdc])), 'What is the ionic conductivity of GDC at 600 °C?');
    expect(a.shape).toBe('value');
    expect(a.sentences[0]).toMatchObject({ verdict: 'supported' });
    expect(a.sentences[0].text).toMatch(/^Conductivity of GDC: 0\.025 S cm\S+, at 600 °C\.$/);
  });

  it('labels the value with the specific property asked, not the "temperature" the question also names', async () => {
    const mgb2: FixturePaper = {
      id: 'mgb2',
      doi: '10.9999/mgb2',
      title: 'Superconductivity in MgB2 wires',
      paragraphs: [{ text: 'The MgB2 wires were sintered at 850 °C, and the MgB2 wires show a superconducting transition temperature Tc of 39 K.' }],
    };
    const a = await answerQuestion(await indexOf(corpusOf([mgb2])), 'At what temperature does MgB2 become superconducting?');
    expect(a.shape).toBe('value');
    expect(a.sentences[0].text).toBe('Superconducting transition temperature of MgB2: 39 K.');
  });
});

describe('a value the paper states at several conditions, in the sentence after the one naming its material', () => {
  const pressure: FixturePaper = {
    id: 'csos',
    doi: '10.9999/csos',
    title: 'Pressure effects on a pyrochlore superconductor',
    paragraphs: [
      {
        text: 'The change in Tc with pressure is largest for CsOs2O6 with Tc = 3.3 K at ambient pressure. The Tc is raised to 5.0 K at 2 GPa and further increased to 7.6 K at 6 GPa. The samples were annealed for 12 h.',
      },
    ],
  };

  it('answers with the value at the condition asked, quoting its sentence and naming only that condition', async () => {
    const index = await indexOf(corpusOf([pressure]));
    const at6 = await answerQuestion(index, 'What is the Tc of CsOs2O6 at 6 GPa?');
    expect(at6.sentences[0].text).toBe('Superconducting transition temperature of CsOs2O6: 7.6 K, at 6 GPa.');
    const at2 = await answerQuestion(index, 'What is the Tc of CsOs2O6 at 2 GPa?');
    expect(at2.sentences[0].text).toBe('Superconducting transition temperature of CsOs2O6: 5.0 K, at 2 GPa.');
  });

  it("quotes the sentence where the value stands, not one where its text sits inside another number ('2 h' in '12 h')", async () => {
    const heated: FixturePaper = {
      id: 'mno',
      doi: '10.9999/mno',
      title: 'Manganese oxide on graphite nanosheets',
      paragraphs: [
        {
          text: 'The Mn3O4/GN solution was sealed in an autoclave and kept in an oven at 180 °C for 12 h. MnO/GN was obtained by heating Mn3O4/GN at 400 °C for 2 h in flowing N2/H2.',
        },
      ],
    };
    const a = await answerQuestion(await indexOf(corpusOf([heated])), 'How long was Mn3O4/GN heated at 400 °C?');
    expect(a.sentences[0].text).toMatch(/: 2 h, at 400 °C/);
    expect(a.sentences[1].text).toMatch(/heating Mn3O4\/GN at 400 °C for 2 h/);
  });
});

describe("a value answer's label", () => {
  it("names the property of the value's dimension, never another the question also names, nor the property's acronym as its material", async () => {
    const calcined: FixturePaper = {
      id: 'mnox',
      doi: '10.9999/mnox',
      title: 'MnOx on zeolite for toluene oxidation',
      paragraphs: [{ text: 'The MnOx/ZSM-5 catalysts were calcined at 550 °C for 8 h in static air.' }],
    };
    const hours = await answerQuestion(await indexOf(corpusOf([calcined])), 'MnOx/ZSM-5 catalysts: how many hours were they calcined?');
    expect(hours.shape).toBe('value');
    expect(hours.sentences[0].text).toMatch(/^Duration of MnOx\/ZSM-5: 8 h/);
    const asr: FixturePaper = {
      id: 'asr',
      doi: '10.9999/asr',
      title: 'Layered cobaltite cathodes',
      paragraphs: [{ text: 'The PrBaCo2O5 cathode showed an ASR of 0.12 Ω cm2 at 600 °C.' }],
    };
    const a = await answerQuestion(await indexOf(corpusOf([asr])), 'ASR of the PrBaCo2O5 cathode at 600 °C?');
    expect(a.shape).toBe('value');
    expect(a.sentences[0].text).toMatch(/^Area-specific resistance of PrBaCo2O5: 0\.12 Ω cm2/);
  });
});

describe("a value answer's confidence", () => {
  it("reads its value's confidence under the family's value fit, traced beside its paper's, and is lower for a doubtful value", async () => {
    const index = await indexOf(corpusOf([paper]));
    const question = 'What is the peak power density of a cell with an LSCF cathode at 800 °C?';
    const decision = modelFor(index.embedderId)!;
    // A value fit that reads only how far the value leads: this sentence states one power density, so it leads by the cap.
    const valueFit: AbstentionModel['valueConfidence'] = {
      features: ['valueMargin'],
      mean: [0],
      scale: [1],
      weights: [-0.5],
      bias: 0,
      l2: 0.01,
      timesPaper: false,
      fittedOn: 'test',
    };
    const fitted = await answerQuestion(index, question, { abstentionModel: { ...decision, valueConfidence: valueFit } });
    expect(fitted.shape).toBe('value');
    const step = fitted.trace.find((t) => t.step === 'value-confidence')?.detail as {
      confidence: number;
      paperConfidence: number;
      support: { margin: number };
    };
    expect(step.support.margin).toBe(6);
    // sigmoid(−0.5 · 6)
    expect(step.confidence).toBeCloseTo(1 / (1 + Math.exp(3)), 3);
    expect(step.paperConfidence).toBeGreaterThan(step.confidence);
    // The value's confidence is what the value shape knows of itself: one signal of the answer gate's fit, which a
    // doubtful value lowers.
    expect(fitted.gate?.signals).toMatchObject({ hasOwn: 1 });
    expect(fitted.gate?.signals.own).toBeCloseTo(Math.log(step.confidence / (1 - step.confidence)), 2);
    const without = await answerQuestion(index, question, { abstentionModel: { ...decision, valueConfidence: undefined } });
    expect(without.trace.some((t) => t.step === 'value-confidence')).toBe(false);
    expect(without.gate?.signals).toMatchObject({ hasOwn: 0 });
    expect(fitted.confidence).toBeLessThan(without.confidence);
  });
});
