/**
 * What the rules find but give no role: product-like tokens, numbered compounds, products named only by what they are,
 * and names with morphology. Candidates for a trained tagger (structurers/heads/material-tagger.ts) to judge; the
 * rules alone drop them.
 */

// A token no rule placed that may still name a product: digits, joiners or two capitals in it ("FeNi@FeNi", "M-PCB"),
// and not an instrument, a figure or a unit ("S/cm", "mA/cm2").
const PRODUCT_LIKE = /\d|[/@–-]|[A-Z].*[A-Z]/;
// Abbreviations materials papers use for what is not a material, by class: the paper's furniture; characterisation
// techniques; deposition and growth methods; electrochemical and device terms; physical quantities and models; places
// and bodies. A token that is one (or one with a prefix or suffix: "H-SOFC", "SOFCs") names no product.
const NOT_A_MATERIAL_WORDS = [
  'Teflon|Figure|Fig|Scheme|Table|Section|SI|ESI|ACS|CAS|RSC|DOI',
  'SEM|TEM|HRTEM|STEM|EDS|EDX|EDXS|EELS|XRD|XPS|XAS|XANES|EXAFS|FTIR|IR|UV|Vis|NMR|EPR|ESR|TGA|DSC|DTA|BET|BJH|ICP|AES|OES|MS|AFM|SAED|FFT|PL|TRPL|Raman',
  'CVD|PVD|ALD|PLD|MBE|MOCVD|PECVD|LPCVD|HPHT|SPS|HIP|RF|DC|AC|VHF',
  'RHE|SHE|SCE|NHE|OCV|OCP|EIS|CV|LSV|CA|CP|ECSA|TOF|HER|OER|ORR|OWS|ASR|PEMFC|SOFC|SOEC|PCFC|MFC|DSSC|PSC|OLED|LED|FET|TFT|LIB|SIB',
  'X-ray|DFT|GGA|PBE|MD|SRH|FWHM|RMS|RT|STP|pH|PCE|EQE|IQE|IPCE|LSPR|SPR',
  'USA|UK|PRC|EU|NIST|IUPAC|China|Japan|Germany|Korea',
].join('|');
const NOT_A_MATERIAL = new RegExp(String.raw`^(?:[A-Z]-)?(?:${NOT_A_MATERIAL_WORDS})s?\b|^[A-Za-zµμΩ]{1,3}\/[A-Za-z]{1,3}\d?$|^[A-Z]?[a-z]+(?:-[a-z]+)+$`);
// A modifier ("N-doped", "Yb-Doped", "S-CSR-modified") or an abbreviation as its definition brackets it ("(VHF)",
// "(SS)"): words about a material, not one.
const MODIFIER_OR_ABBREVIATION = /[-–](?:doped|modified|based|derived|loaded|coated|decorated|free|rich|poor)$|^\([^()]*\)$/i;
// A compound numbered in the paper ("MOF 3", "complex 1", "compound 2a").
const NUMBERED_COMPOUND = /\b(?:MOF|[Cc]omplex|[Cc]ompound|[Cc]luster|[Pp]olymer|CP)\s\d+[a-z]?\b/g;
// A product the paragraph names only by what it is ("the final products were washed", "the reddish brown sample was
// collected"): a modifier or a colour before it, so a bare "samples" is none.
const UNNAMED_PRODUCT =
  /(?<![\w-])(?:(?:final|resulting|obtained|as-(?:prepared|obtained|synthesi[sz]ed)|[a-z]+ish|black|brown|purple|green|red|blue|white|yellow|gr[ae]y|rufous|dark|light)\s){1,3}(?:products?|samples?|powders?|precipitates?|solids?|crystals?)\b/g;

/** As many closing brackets as opening ones: "USA)" of a supplier's address, "Er)" of a list, are pieces. */
export const balanced = (t: string): boolean => (t.match(/\(/g) ?? []).length === (t.match(/\)/g) ?? []).length;

/** Whether a token no rule placed may name a product. */
export const productLike = (t: string): boolean => PRODUCT_LIKE.test(t) && !NOT_A_MATERIAL.test(t) && !MODIFIER_OR_ABBREVIATION.test(t) && balanced(t);

/** Numbered compounds and products named only by what they are, in the text. */
export const unnamedProducts = (text: string): RegExpExecArray[] => [...text.matchAll(NUMBERED_COMPOUND), ...text.matchAll(UNNAMED_PRODUCT)];

/** Text of these rules, for the tagger's feature version. */
export const unassignedRulesSource = (): string =>
  [PRODUCT_LIKE.source, NOT_A_MATERIAL.source, MODIFIER_OR_ABBREVIATION.source, NUMBERED_COMPOUND.source, UNNAMED_PRODUCT.source].join('\n');
