import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Small, invented literature files in every supported format, for tests and the browser suite. The text is
 * written for these tests (no third-party paper text is copied into the repository).
 */

export function tempDir(prefix = 'assay-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const corpusPapers = [
  {
    id: 'demo-sofc-01',
    doi: '10.9999/demo.sofc.2021.001',
    title: 'Cobalt-free perovskite cathodes for intermediate-temperature fuel cells',
    authors: ['Ada Lovelace', 'Marie Curie'],
    journal: 'Journal of Invented Materials',
    year: 2021,
    license: 'CC-BY 4.0',
    source: 'Demo',
    source_id: 'sofc_01',
    also_in: [],
    domain: 'sofc',
    paragraphs: [
      {
        id: 'demo-sofc-01:p1',
        section: 'Abstract',
        text: 'We report a cobalt-free La0.6Sr0.4FeO3 cathode with a peak power density of 812 mW cm−2 at 700 °C.',
      },
      {
        id: 'demo-sofc-01:p2',
        section: 'Experimental',
        text: 'Powders were calcined at 1000 °C for 4 h in air and screen-printed on gadolinium-doped ceria electrolytes.',
      },
      {
        id: 'demo-sofc-01:p3',
        section: 'Results',
        text: 'The area-specific resistance fell to 0.12 Ω cm2 at 750 °C, lower than the cobalt-containing reference.',
      },
    ],
  },
  {
    id: 'demo-battery-02',
    doi: '10.9999/demo.battery.2019.002',
    title: 'Sol-gel synthesis of spinel LiMn2O4 for lithium-ion batteries',
    authors: ['Grace Hopper'],
    journal: 'Invented Electrochemistry Letters',
    year: 2019,
    license: 'CC-BY 4.0',
    source: 'Demo',
    source_id: 'battery_02',
    also_in: [],
    domain: 'battery',
    paragraphs: [
      { id: 'demo-battery-02:p1', section: 'Abstract', text: 'Spinel LiMn2O4 was prepared by a citric-acid sol-gel route and delivered 128 mAh g−1 at 0.1 C.' },
      { id: 'demo-battery-02:p2', section: null, text: 'Lithium acetate and manganese acetate were dissolved in deionised water and gelled at 80 °C.' },
    ],
  },
  {
    id: 'demo-polymer-03',
    doi: null,
    title: null,
    authors: [],
    journal: null,
    year: null,
    license: 'Apache-2.0',
    source: 'Demo',
    source_id: 'polymer_03',
    also_in: [],
    domain: 'polymer',
    paragraphs: [
      {
        id: 'demo-polymer-03:p1',
        section: null,
        text: 'The polyimide membrane reached an ionic conductivity of 0.08 S cm−1 at 80 °C and 95% relative humidity.',
      },
    ],
  },
];

export const recipeRows = [
  {
    doi: '10.9999/demo.battery.2019.002',
    synthesis_type: 'sol-gel',
    targets_string: ['LiMn2O4'],
    reaction_string: '0.5 Li2CO3 + 2 MnO2 == 1 LiMn2O4 + 0.5 CO2 + 0.25 O2',
    operations: [{ type: 'HeatingOperation', string: 'calcined', conditions: { heating_temperature: [{ values: [750], units: '°C' }] } }],
    paragraph_string: 'invented excerpt',
  },
  {
    doi: '10.9999/demo.battery.2019.002',
    synthesis_type: 'sol-gel',
    targets_string: ['LiMn1.9Al0.1O4'],
    reaction_string: '0.5 Li2CO3 + 1.9 MnO2 + 0.05 Al2O3 == 1 LiMn1.9Al0.1O4',
    operations: [],
    paragraph_string: 'invented excerpt',
  },
];

/**
 * Invented recipes for one material by two methods (the text-mined datasets' form): five sol-gel recipes of LiMn2O4
 * with varied precursors and steps, one of a doped variant, and two solid-state ones. No recipe of it is hydrothermal.
 */
export function inventedRecipes(): Record<string, unknown>[] {
  const op = (type: string, token: string, c: { t?: number; tRange?: [number, number]; h?: number; atm?: string[]; media?: string[] } = {}) => ({
    type,
    token,
    conditions: {
      heating_temperature:
        c.t !== undefined
          ? [{ values: [c.t], units: '°C', min_value: c.t, max_value: c.t }]
          : c.tRange
            ? [{ values: [], units: 'C', min_value: c.tRange[0], max_value: c.tRange[1] }]
            : null,
      heating_time: c.h !== undefined ? [{ values: [c.h], units: 'h', min_value: c.h, max_value: c.h }] : null,
      heating_atmosphere: c.atm ?? null,
      mixing_media: c.media ?? null,
    },
  });
  const recipe = (doi: string, type: string, target: string, precursors: string[], operations: unknown[]) => ({
    doi,
    ...(type === 'sol-gel' ? { synthesis_type: 'sol-gel' } : {}),
    targets_string: [target],
    target: { material_string: target, material_formula: target },
    precursors: precursors.map((p) => ({ material_string: p, material_formula: p })),
    reaction_string: `${precursors.join(' + ')} == ${target}`,
    operations,
    paragraph_string: 'invented excerpt',
  });
  return [
    recipe(
      '10.9999/recipe.sg.1',
      'sol-gel',
      'LiMn2O4',
      ['LiNO3', 'Mn(NO3)2', 'C6H8O7'],
      [
        op('MixingOperation', 'dissolved', { media: ['water'] }),
        op('DryingOperation', 'dried', { t: 80, h: 12 }),
        op('HeatingOperation', 'calcined', { t: 750, h: 10, atm: ['air'] }),
      ],
    ),
    recipe(
      '10.9999/recipe.sg.2',
      'sol-gel',
      'LiMn2O4',
      ['LiNO3', 'Mn(NO3)2', 'C6H8O7'],
      [
        op('MixingOperation', 'stirred'),
        op('DryingOperation', 'dried', { t: 120 }),
        op('HeatingOperation', 'preheated', { t: 400, h: 4 }),
        op('HeatingOperation', 'calcined', { t: 800, h: 12, atm: ['air'] }),
      ],
    ),
    recipe(
      '10.9999/recipe.sg.3',
      'sol-gel',
      'LiMn2O4',
      ['LiCH3COO', 'Mn(CH3COO)2', 'C6H8O7'],
      [
        op('MixingOperation', 'dissolved'),
        op('DryingOperation', 'evaporated', { tRange: [70, 90] }),
        op('HeatingOperation', 'calcined', { t: 700, h: 6, atm: ['oxygen'] }),
      ],
    ),
    recipe(
      '10.9999/recipe.sg.4',
      'sol-gel',
      'LiMn2O4',
      ['LiNO3', 'Mn(CH3COO)2', 'C6H8O7'],
      [op('MixingOperation', 'mixed'), op('DryingOperation', 'dried', { t: 100 }), op('HeatingOperation', 'calcined', { t: 750, h: 8, atm: ['air'] })],
    ),
    recipe(
      '10.9999/recipe.sg.5',
      'sol-gel',
      'Li1.05Mn2O4',
      ['LiNO3', 'Mn(NO3)2', 'C6H8O7'],
      [op('MixingOperation', 'dissolved'), op('HeatingOperation', 'calcined', { t: 850, h: 10, atm: ['air'] })],
    ),
    recipe(
      '10.9999/recipe.sg.6',
      'sol-gel',
      'LiMn1.9Ni0.1O4',
      ['LiNO3', 'Mn(NO3)2', 'Ni(NO3)2', 'C6H8O7'],
      [op('MixingOperation', 'dissolved'), op('HeatingOperation', 'calcined', { t: 750, h: 10 })],
    ),
    recipe(
      '10.9999/recipe.ss.1',
      'solid-state',
      'LiMn2O4',
      ['Li2CO3', 'MnO2'],
      [op('MixingOperation', 'ground'), op('HeatingOperation', 'sintered', { t: 900, h: 24, atm: ['air'] })],
    ),
    recipe('10.9999/recipe.ss.2', 'solid-state', 'LiMn2O4', ['Li2CO3', 'Mn2O3'], [op('HeatingOperation', 'heated', { t: 850, h: 20 })]),
    recipe('10.9999/recipe.ss.3', 'solid-state', 'LiMnPO4', ['Li2CO3', 'MnCO3', 'NH4H2PO4'], [op('HeatingOperation', 'heated', { t: 650, h: 10 })]),
  ];
}

export const solarchemRow = {
  doi: '10.9999/demo.solar.2020.003',
  paper_id: null,
  ID: '1',
  No_de_Ref: '1',
  Catalyst: 'TiO2',
  Co_catalyst: 'Pt',
  Light_source: 'UV',
  CH4_mol_gh: 0.5,
};

/** One more invented paper of one paragraph: an import that changes the corpus (and so the retrieval index). */
export const extraPaper = {
  ...corpusPapers[2],
  id: 'demo-extra',
  doi: '10.9999/demo.extra',
  source_id: 'extra_01',
  paragraphs: [{ id: 'demo-extra:p1', section: null, text: 'A new zirconia membrane paper.' }],
};

/** `n` invented papers (doped ceria electrolytes) built on the fixture papers: bulk for imports that must take a while. */
export function inventedPapers(n: number, prefix: string) {
  return Array.from({ length: n }, (_, i) => ({
    ...structuredClone(corpusPapers[i % corpusPapers.length]),
    id: `${prefix}-${i}`,
    doi: `10.9999/${prefix}.${i}`,
    title: `Doped ceria electrolyte ${i}`,
    paragraphs: [
      {
        id: null,
        section: 'Experimental',
        text: `Ce0.9Gd0.1O2 sample ${i} was prepared by a sol-gel route from cerium nitrate and calcined at ${500 + (i % 40) * 10} °C for ${1 + (i % 5)} h.`,
      },
      { id: null, section: 'Results', text: `The cell with electrolyte ${i} reached a peak power density of ${200 + (i % 300)} mW cm−2 at 700 °C.` },
    ],
  }));
}

export function writeCorpusJsonl(dir: string, name = 'papers.jsonl', papers: unknown[] = corpusPapers, gzip = false): string {
  const body = `${papers.map((p) => JSON.stringify(p)).join('\n')}\n`;
  const file = path.join(dir, gzip ? `${name}.gz` : name);
  fs.writeFileSync(file, gzip ? zlib.gzipSync(body) : body);
  return file;
}

export function writeRecordsJsonl(dir: string, name = 'sol-gel.jsonl', rows: unknown[] = recipeRows, gzip = false): string {
  const body = `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  const file = path.join(dir, gzip ? `${name}.gz` : name);
  fs.writeFileSync(file, gzip ? zlib.gzipSync(body) : body);
  return file;
}

export function teiXml(opts: { doi?: string; title?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0">
  <teiHeader>
    <fileDesc>
      <titleStmt><title level="a" type="main">${opts.title ?? 'Proton conduction in <hi rend="italic">BaZr0.8Y0.2O3−δ</hi> thin films'}</title></titleStmt>
      <publicationStmt><availability><licence target="https://creativecommons.org/licenses/by/4.0/"><p>CC BY 4.0</p></licence></availability></publicationStmt>
      <sourceDesc>
        <biblStruct>
          <analytic>
            <author><persName><forename type="first">Rosalind</forename><surname>Franklin</surname></persName></author>
            <author><persName><forename type="first">Lise</forename><forename type="middle">M</forename><surname>Meitner</surname></persName></author>
            ${opts.doi ? `<idno type="DOI">${opts.doi}</idno>` : ''}
          </analytic>
          <monogr><title level="j">Invented Solid State Ionics</title><imprint><date type="published" when="2020-05-01">May 2020</date></imprint></monogr>
        </biblStruct>
      </sourceDesc>
    </fileDesc>
    <profileDesc>
      <abstract><div><p>Yttrium-doped barium zirconate films showed a proton conductivity of 0.01 S cm<hi rend="superscript">−1</hi> at 600 °C.</p></div></abstract>
    </profileDesc>
  </teiHeader>
  <text xml:lang="en">
    <body>
      <div><head n="1.">Introduction</head>
        <p>Proton-conducting oxides allow fuel cells to run below 650 °C <ref type="bibr" target="#b0">[1]</ref>.</p>
      </div>
      <div><head n="2.">Experimental</head>
        <p>Films were grown by pulsed laser deposition on MgO substrates at 750 °C &amp; 0.1 mbar O<hi rend="subscript">2</hi>.</p>
        <p>Impedance spectra were recorded from 300 to 600 °C in wet argon.</p>
      </div>
      <figure xml:id="fig_0"><head>Fig. 1</head><label>1</label><figDesc>Arrhenius plot of the film conductivity.</figDesc></figure>
      <figure type="table" xml:id="tab_0"><head>Table 1</head><figDesc>Deposition conditions.</figDesc></figure>
    </body>
    <back><div type="references"><listBibl><biblStruct><analytic><title>A cited paper</title></analytic></biblStruct></listBibl></div></back>
  </text>
</TEI>
`;
}

export function jatsXml(opts: { pmcid?: string; doi?: string; title?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
  <front>
    <journal-meta><journal-title-group><journal-title>Invented Reports</journal-title></journal-title-group></journal-meta>
    <article-meta>
      <article-id pub-id-type="pmcid">${opts.pmcid ?? 'PMC0000001'}</article-id>
      <article-id pub-id-type="doi">${opts.doi ?? '10.9999/demo.jats.2018.004'}</article-id>
      <title-group><article-title>${opts.title ?? 'Nickel–yttria-stabilised zirconia anodes under methane'}</article-title></title-group>
      <contrib-group>
        <contrib contrib-type="author"><name><surname>Noether</surname><given-names>Emmy</given-names></name></contrib>
        <contrib contrib-type="editor"><name><surname>Editor</surname><given-names>Not An</given-names></name></contrib>
      </contrib-group>
      <pub-date pub-type="epub"><day>3</day><month>4</month><year>2018</year></pub-date>
      <permissions><license xlink:href="http://creativecommons.org/licenses/by/4.0/"><license-p>CC BY</license-p></license></permissions>
      <abstract><p>Ni–YSZ anodes lost 4% of their performance over 500 h in dry methane at 800 °C.</p></abstract>
    </article-meta>
  </front>
  <body>
    <sec><title>Introduction</title><p>Carbon deposition limits direct methane operation<xref ref-type="bibr" rid="b1">1</xref>.</p></sec>
    <sec><title>Methods</title>
      <sec><title>Cell fabrication</title>
        <p>Anode-supported cells were co-sintered at 1350 °C.<fig id="f1"><label>Figure 1</label><caption><p>Cross-section of the anode.</p></caption></fig></p>
        <p>The power density was 0.45 W cm<sup>−2</sup> at 0.7 V.<disp-formula>P = IV</disp-formula></p>
      </sec>
    </sec>
    <table-wrap id="t1"><label>Table 1</label><caption><p>Cell performance summary.</p></caption><table><tr><td>0.45</td></tr></table></table-wrap>
  </body>
  <back><ref-list><ref id="b1"><mixed-citation>Someone, 2001.</mixed-citation></ref></ref-list></back>
</article>
`;
}

/** A two-page article PDF (pdf-lib): a large title, numbered headings, paragraphs and a hyphen across lines. */
export async function makePdf(opts: { doi?: string } = {}): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle('Invented metadata title');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage([595, 842]);
  let y = 780;
  const line = (text: string, size = 10, f = font, x = 56) => {
    if (y < 80) {
      page = doc.addPage([595, 842]);
      y = 780;
    }
    page.drawText(text, { x, y, size, font: f });
    y -= size * 1.4;
  };
  line('Thermal expansion of doped ceria electrolytes', 18, bold);
  y -= 6;
  line('Alan Turing, Dorothy Hodgkin', 11);
  if (opts.doi) line(`DOI: ${opts.doi}`, 9);
  y -= 12;
  line('Abstract', 12, bold);
  line('Gadolinium-doped ceria expands by 12.5 ppm per kelvin between 300 and 1000 K, a value we');
  line('measured by dilatometry on dense pellets sintered at 1450 °C.');
  y -= 12;
  line('1. Introduction', 12, bold);
  line('Doped ceria is a candidate electrolyte for intermediate-temperature fuel cells because its ionic');
  line('conductivity exceeds that of zirconia below 700 °C. Its thermal expan-');
  line('sion must match the electrodes.');
  y -= 10;
  line('A mismatch larger than 2 ppm per kelvin cracks the cathode layer after a few thermal cycles.');
  y -= 12;
  line('2. Experimental', 12, bold);
  for (let i = 0; i < 40; i++) line(`Sample ${i + 1} was heated at 5 K per minute in air and its length change was recorded.`);
  return doc.save();
}
