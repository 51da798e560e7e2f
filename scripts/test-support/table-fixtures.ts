/**
 * Papers whose numbers live in tables, written for these tests (invented values, not from any paper): a JATS article
 * with a two-level header (a property spanning two temperature columns) and a row-spanning cell, and a GROBID-style
 * TEI document with label rows. Each holds values stated only in a table cell, never in the running text.
 */

export function jatsTableXml(opts: { doi?: string; title?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
  <front>
    <journal-meta><journal-title-group><journal-title>Invented Cathode Letters</journal-title></journal-title-group></journal-meta>
    <article-meta>
      <article-id pub-id-type="doi">${opts.doi ?? '10.9999/demo.tables.2024.001'}</article-id>
      <title-group><article-title>${opts.title ?? 'Cobaltite and ferrite cathodes compared in anode-supported cells'}</article-title></title-group>
      <contrib-group><contrib contrib-type="author"><name><surname>Franklin</surname><given-names>Rosalind</given-names></name></contrib></contrib-group>
      <pub-date pub-type="epub"><year>2024</year></pub-date>
      <permissions><license xlink:href="http://creativecommons.org/licenses/by/4.0/"><license-p>CC BY</license-p></license></permissions>
      <abstract><p>Four perovskite cathodes were screened on identical anode-supported cells; the results are summarised in the tables.</p></abstract>
    </article-meta>
  </front>
  <body>
    <sec><title>Results</title>
      <p>Table 1 lists the cathodes, their sintering temperatures and the peak power densities of the cells.</p>
      <table-wrap id="tab1"><label>Table 1</label><caption><p>Electrochemical performance of the cathodes on Ni–YSZ supported cells.</p></caption>
        <table>
          <thead>
            <tr><th rowspan="2">Cathode</th><th rowspan="2">Sintering temperature (°C)</th><th rowspan="2">ASR (Ω cm2)</th><th colspan="2">Peak power density (mW cm−2)</th></tr>
            <tr><th>650 °C</th><th>750 °C</th></tr>
          </thead>
          <tbody>
            <tr><td>Pr0.5Ba0.5CoO3</td><td>975</td><td>0.071</td><td>688</td><td>1043</td></tr>
            <tr><td>Nd0.6Sr0.4FeO3</td><td>1050</td><td>0.212</td><td>402</td><td>733</td></tr>
            <tr><td>Sm0.5Sr0.5CoO3</td><td>1000</td><td>0.094</td><td>597</td><td>911</td></tr>
            <tr><td>La0.7Sr0.3MnO3</td><td>1150</td><td>0.640</td><td>214</td><td>455</td></tr>
          </tbody>
        </table>
      </table-wrap>
      <table-wrap id="tab2"><label>Table 2</label><caption><p>Lattice parameters from Rietveld refinement.</p></caption>
        <table>
          <tr><td>Sample</td><td>a (Å)</td><td>Space group</td></tr>
          <tr><td>Pr0.5Ba0.5CoO3</td><td>3.874</td><td>Pm-3m</td></tr>
          <tr><td>Nd0.6Sr0.4FeO3</td><td>3.891</td><td>Pnma</td></tr>
        </table>
      </table-wrap>
    </sec>
  </body>
</article>
`;
}

export function teiTableXml(opts: { doi?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0" xmlns:xml="http://www.w3.org/XML/1998/namespace">
  <teiHeader>
    <fileDesc>
      <titleStmt><title level="a" type="main">Upper critical fields of invented intermetallic superconductors</title></titleStmt>
      <publicationStmt><availability><licence target="https://creativecommons.org/licenses/by/4.0/">CC-BY</licence></availability></publicationStmt>
      <sourceDesc><biblStruct><analytic><author><persName><forename>Heike</forename><surname>Onnes</surname></persName></author></analytic>
        <monogr><imprint><date when="2023"/></imprint></monogr><idno type="DOI">${opts.doi ?? '10.9999/demo.tables.2023.002'}</idno></biblStruct></sourceDesc>
    </fileDesc>
    <profileDesc><abstract><p>Three intermetallic compounds were measured in pulsed fields; Table 1 collects the results.</p></abstract></profileDesc>
  </teiHeader>
  <text>
    <body>
      <div><head n="1">Results</head><p>The transition temperatures and upper critical fields are listed in Table 1.</p></div>
    </body>
    <back>
      <figure type="table" xml:id="tab_0">
        <head>Table 1</head>
        <figDesc>Superconducting parameters of the compounds.</figDesc>
        <table>
          <row role="label"><cell>Compound</cell><cell>Tc (K)</cell><cell>μ0Hc2(0) (T)</cell></row>
          <row><cell>Nb2InC</cell><cell>7.6</cell><cell>1.3</cell></row>
          <row><cell>Mo3Al2C</cell><cell>9.1</cell><cell>15.4</cell></row>
          <row><cell>Ta4Ir2Se</cell><cell>4.2</cell><cell>0.82</cell></row>
        </table>
      </figure>
    </back>
  </text>
</TEI>
`;
}

/**
 * A one-page article PDF (pdf-lib) whose values live in a ruled table only: a title, a paragraph pointing at the
 * table, the table (header row with units, three material rows), and a closing paragraph. Invented values.
 */
export async function makeTablePdf(): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595, 842]);
  page.drawText('Ionic conductivity of invented doped ceria pellets', { x: 56, y: 780, size: 18, font: bold });
  page.drawText('Grace Hopper, Kathleen Lonsdale', { x: 56, y: 755, size: 11, font });
  page.drawText('Table 1 lists the pellets, their sintering temperatures and their conductivities at 600 °C.', { x: 56, y: 720, size: 10, font });
  page.drawText('Table 1. Conductivity of the pellets.', { x: 56, y: 690, size: 10, font: bold });
  const columns = [56, 216, 386, 540];
  const rows = [
    ['Pellet', 'Sintering temperature (°C)', 'Conductivity (S/cm)'],
    ['Ce0.9Gd0.1O2', '1450', '0.0214'],
    ['Ce0.8Sm0.2O2', '1400', '0.0347'],
    ['Ce0.85Y0.15O2', '1500', '0.0128'],
  ];
  const top = 675;
  const height = 22;
  for (let r = 0; r <= rows.length; r++)
    page.drawLine({ start: { x: columns[0], y: top - r * height }, end: { x: columns.at(-1)!, y: top - r * height }, thickness: 0.8, color: rgb(0, 0, 0) });
  for (const x of columns) page.drawLine({ start: { x, y: top }, end: { x, y: top - rows.length * height }, thickness: 0.8, color: rgb(0, 0, 0) });
  for (const [r, row] of rows.entries())
    for (const [c, cell] of row.entries()) page.drawText(cell, { x: columns[c] + 5, y: top - (r + 1) * height + 7, size: 10, font: r === 0 ? bold : font });
  page.drawText('The samarium-doped pellet conducts best; the yttrium-doped one, sintered hottest, worst.', { x: 56, y: 560, size: 10, font });
  return doc.save();
}
