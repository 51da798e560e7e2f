/**
 * Named preparation and growth techniques, each with the spellings papers and questions use. A question that
 * names how something was made ("… prepared by electrospinning") is answered only by a paper that names the same
 * technique: it is one of the facts that decide whether a paper is the one asked about. (The broad synthesis
 * classes of `classify.ts` group techniques for filtering paragraphs; these keep them apart.)
 */
export const TECHNIQUES: readonly { key: string; pattern: RegExp }[] = [
  { key: 'electrospinning', pattern: /\belectro-?spun\b|\belectro-?spinn\w*/i },
  // Written however the hyphen comes out: "sol-gel", "sol–gel", "sol gel", "sol/gel", "solgel".
  { key: 'sol-gel', pattern: /\bsol[\s–—/-]?gel\b/i },
  { key: 'pechini', pattern: /\bPechini\b/i },
  { key: 'hydrothermal', pattern: /\bhydrothermal\w*/i },
  { key: 'solvothermal', pattern: /\bsolvothermal\w*/i },
  { key: 'ball-milling', pattern: /\bball[- ]mill\w*|\bmechanochemical\w*|\bhigh[- ]energy mill\w*/i },
  { key: 'solid-state-reaction', pattern: /\bsolid[- ]state (?:reaction|method|route|synthesis|sintering)\b|\bceramic (?:method|route)\b/i },
  { key: 'co-precipitation', pattern: /\bco[\s–-]?precipitat\w*/i },
  { key: 'chemical-vapour-deposition', pattern: /\bchemical vapou?r deposit\w*|\b(?:PE|MO|LP)?CVD\b/ },
  { key: 'atomic-layer-deposition', pattern: /\batomic layer deposit\w*|\bALD\b/i },
  { key: 'sputtering', pattern: /\bsputter\w*|\bmagnetron\b/i },
  { key: 'molecular-beam-epitaxy', pattern: /\bmolecular[- ]beam epitax\w*|\bMBE\b/ },
  { key: 'pulsed-laser-deposition', pattern: /\bpulsed[- ]laser deposit\w*|\bPLD\b/ },
  { key: 'arc-melting', pattern: /\barc[- ]melt\w*/i },
  { key: 'spray-pyrolysis', pattern: /\bspray[- ]pyroly\w*/i },
  { key: 'flame-spray', pattern: /\bflame[- ]spray\w*|\bflame synthesi\w*/i },
  { key: 'electrodeposition', pattern: /\belectro-?deposit\w*|\belectroplat\w*|\bcathodic deposition\b/i },
  { key: 'electroless-deposition', pattern: /\belectroless\b/i },
  { key: 'anodization', pattern: /\banodi[sz](?:ation|ed|ing)\b/i },
  { key: 'combustion-synthesis', pattern: /\b(?:solution |self-propagating |gel[- ])?combustion (?:synthesis|method|route)\b|\bglycine[- ]nitrate\b/i },
  { key: 'microwave', pattern: /\bmicrowave\w*/i },
  { key: 'sonochemical', pattern: /\bsonochemical\w*/i },
  { key: 'freeze-drying', pattern: /\bfreeze[- ]dr\w*|\blyophili[sz]\w*/i },
  { key: 'spin-coating', pattern: /\bspin[- ]coat\w*/i },
  { key: 'dip-coating', pattern: /\bdip[- ]coat\w*/i },
  { key: 'impregnation', pattern: /\bimpregnat\w*|\binfiltrat\w*/i },
  { key: 'wire-explosion', pattern: /\bwire explosion\b|\bexploding wire\b|\belectrical explosion\b/i },
  { key: 'hot-pressing', pattern: /\bhot[- ]press\w*/i },
  { key: 'spark-plasma-sintering', pattern: /\bspark plasma sinter\w*|\bSPS\b/ },
  { key: 'floating-zone', pattern: /\bfloating[- ]zone\b|\btravell?ing[- ]solvent floating\b/i },
  { key: 'flux-growth', pattern: /\bflux (?:method|growth|grown)\b|\bself-flux\b/i },
  { key: 'high-pressure-synthesis', pattern: /\bhigh[- ]pressure synthe\w*|\bsynthesi[sz]ed under high pressure\b/i },
  { key: 'tape-casting', pattern: /\btape[- ]cast\w*/i },
  { key: 'screen-printing', pattern: /\bscreen[- ]print\w*/i },
  { key: 'hummers', pattern: /\bHummers\b/i },
  { key: 'ion-exchange', pattern: /\bion[- ]exchang\w*/i },
  { key: 'thermal-evaporation', pattern: /\bthermal(?:ly)? evaporat\w*|\be-beam evaporat\w*|\belectron[- ]beam evaporat\w*/i },
];

/** The techniques a text names, by key. */
export function findTechniques(text: string): string[] {
  return TECHNIQUES.filter((t) => t.pattern.test(text)).map((t) => t.key);
}
