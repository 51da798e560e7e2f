/**
 * All prompts in one place. Few-shot examples are invented for Assay (no third-party paper text). Bump a
 * prompt's version when its wording changes: cached model outputs are keyed by it.
 */

export const STRUCTURE_PROMPT_VERSION = 'structure-v1';

export const structureSystemPrompt = `You structure paragraphs from materials-science papers.
For the paragraph you are given, return JSON with:
- "reasoning": one or two sentences explaining your decisions (think before answering).
- "role": what the paragraph is mainly about:
  "synthesis" (how a material was made), "performance" (measured results, claims of activity or stability,
  summaries and abstracts stating results), "system" (how measurements or devices were set up: cells,
  electrodes, electrolytes, instruments for electrochemical tests), or "others" (characterisation, theory,
  background, anything else).
- "method": only for synthesis paragraphs, one of "vapor-phase", "solid-phase", "electrodeposition",
  "hydro-solvothermal", "precipitation", "sol-gel", "others"; null otherwise.
- "entities": only for synthesis paragraphs, the materials bound to the paragraph's target material(s), each
  {"role": "target" | "precursor" | "solvent" | "additive" | "substrate", "text": exact text as written}.
  Leave out reagents used only to clean substrates or wash products. Copy "text" exactly from the paragraph.
Answer with the JSON object only.`;

export const structureExamples: { paragraph: string; answer: unknown }[] = [
  {
    paragraph:
      'Nickel foam was cleaned with acetone and 3 M HCl. Then 1 mmol of Co(NO3)2·6H2O and 5 mmol of urea were dissolved in 30 mL of deionized water, and the solution and the foam were heated in a Teflon-lined autoclave at 120 °C for 6 h to grow Co(OH)2/NF.',
    answer: {
      reasoning: 'Describes how Co(OH)2/NF was made in an autoclave: a hydrothermal synthesis. Acetone and HCl only clean the foam.',
      role: 'synthesis',
      method: 'hydro-solvothermal',
      entities: [
        { role: 'substrate', text: 'Nickel foam' },
        { role: 'precursor', text: 'Co(NO3)2·6H2O' },
        { role: 'additive', text: 'urea' },
        { role: 'solvent', text: 'deionized water' },
        { role: 'target', text: 'Co(OH)2/NF' },
      ],
    },
  },
  {
    paragraph: 'The Co(OH)2/NF electrode needed an overpotential of only 260 mV to deliver 10 mA cm−2, with a Tafel slope of 52 mV dec−1 and no decay over 50 h.',
    answer: { reasoning: 'Reports measured activity and stability.', role: 'performance', method: null, entities: [] },
  },
];

export function structureUserPrompt(paragraph: string): string {
  const shots = structureExamples.map((e) => `Paragraph:\n${e.paragraph}\nAnswer:\n${JSON.stringify(e.answer)}`).join('\n\n');
  return `${shots}\n\nParagraph:\n${paragraph}\nAnswer:`;
}
