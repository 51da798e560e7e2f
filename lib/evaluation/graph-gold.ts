import { openContentStream, readLines } from '../ingest/files.ts';
import type { ComparableTuple } from './tuple-metrics.ts';

/**
 * Gold relations of the development sets, mapped to Assay's relation types:
 * - PolyIE tuples (compound, property, value)            → (compound, has_property, property)
 * - SuperMat links (material, tcValue, pressure)          → (material, has_property, critical temperature)
 * - SOFC-Exp frames: the most specific material slot (cathode, anode, electrolyte, interlayer, support material,
 *   else device) with each measured slot (power density, resistance, current density, conductivity, open-circuit
 *   voltage, voltage)                                     → (material, has_property, property)
 * - MSPT synthesis events: Recipe_Target × Recipe_Precursor in one paragraph → (target, synthesized_from,
 *   precursor); Solvent_Material → (solvent, used_as, solvent)
 * - MuLMS relations (head → tail, both entities in one paragraph):
 *   MEASUREMENT conditionSampleFeatures MAT + the same MEASUREMENT measuresProperty PROPERTY, and MAT associatedInfo
 *   PROPERTY                                              → (material, has_property, property)
 *   MAT dopedBy MAT                                       → (material, doped_with, dopant)
 *   MAT usedAs MAT (a role such as "electrocatalyst")     → (material, used_as, role)
 *   MAT usedIn DEV                                        → (material, part_of, device)
 *   Not mapped: hasForm, refersToMaterial, usedTogether, conditionEnvironment/Instrument, usesTechnique, takenFrom,
 *   sameMeas and the other associatedInfo pairs (no Assay relation states them).
 */
export type GoldFormat = 'polyie' | 'supermat' | 'sofc' | 'mspt' | 'mulms';

/** The Assay relation types each gold format is scored on. */
export const MAPPED_RELATIONS: Record<GoldFormat, string[]> = {
  polyie: ['has_property'],
  supermat: ['has_property'],
  sofc: ['has_property'],
  mspt: ['synthesized_from', 'used_as'],
  mulms: ['has_property', 'doped_with', 'used_as', 'part_of'],
};

export function detectGoldFormat(file: string): GoldFormat | null {
  if (/polyie/i.test(file)) return 'polyie';
  if (/supermat/i.test(file)) return 'supermat';
  if (/sofc/i.test(file)) return 'sofc';
  if (/mspt/i.test(file)) return 'mspt';
  if (/mulms/i.test(file)) return 'mulms';
  return null;
}

const SOFC_MATERIAL_SLOTS = ['cathode_material', 'anode_material', 'electrolyte_material', 'interlayer_material', 'support_material', 'device'];
const SOFC_PROPERTY_SLOTS: Record<string, string> = {
  power_density: 'power density',
  resistance: 'resistance',
  current_density: 'current density',
  conductivity: 'conductivity',
  open_circuit_voltage: 'open-circuit voltage',
  voltage: 'voltage',
};

// biome-ignore lint/suspicious/noExplicitAny: gold files are third-party JSON of several shapes, read field by field
type Obj = Record<string, any>;

export async function readGoldTuples(file: string, format: GoldFormat): Promise<ComparableTuple[]> {
  const out: ComparableTuple[] = [];
  for await (const line of readLines(await openContentStream(file), 64 * 1024 * 1024)) {
    if ('error' in line) throw new Error(`${file}:${line.lineNo}: ${line.error}`);
    if (!line.text.trim()) continue;
    const row = JSON.parse(line.text) as Obj;
    if (format === 'polyie') {
      if (row.paragraph_id && row.compound && row.property)
        out.push({ paragraphId: row.paragraph_id, subject: row.compound, relation: 'has_property', object: row.property, value: row.value });
    } else if (format === 'supermat') {
      const pid = row.spans?.tcValue?.paragraph_id ?? row.spans?.material?.paragraph_id;
      if (pid && row.material && row.tcValue)
        out.push({ paragraphId: pid, subject: row.material, relation: 'has_property', object: 'critical temperature', value: row.tcValue });
    } else if (format === 'sofc') {
      const slots = row.slots as Record<string, string>;
      const subjectSlot = SOFC_MATERIAL_SLOTS.find((s) => slots[s]);
      if (!row.paragraph_id || !subjectSlot) continue;
      for (const [slot, property] of Object.entries(SOFC_PROPERTY_SLOTS)) {
        if (slots[slot])
          out.push({
            paragraphId: row.paragraph_id,
            subject: slots[subjectSlot].split('; ')[0],
            relation: 'has_property',
            object: property,
            value: slots[slot],
          });
      }
    } else if (format === 'mulms') {
      out.push(...mulmsTuples(row));
    } else {
      const byId = new Map((row.entities as Obj[]).map((e) => [e.id, e]));
      const roles = new Map<string, Map<string, Obj[]>>(); // paragraph → role → entities
      for (const ev of row.events as Obj[]) {
        for (const a of ev.args as Obj[]) {
          const e = byId.get(a.entity);
          if (!e?.paragraph_id) continue;
          const byRole = roles.get(e.paragraph_id) ?? new Map<string, Obj[]>();
          byRole.set(a.role, [...(byRole.get(a.role) ?? []), e]);
          roles.set(e.paragraph_id, byRole);
        }
      }
      for (const [pid, byRole] of roles) {
        for (const t of byRole.get('Recipe_Target') ?? [])
          for (const p of byRole.get('Recipe_Precursor') ?? []) out.push({ paragraphId: pid, subject: t.text, relation: 'synthesized_from', object: p.text });
        for (const s of byRole.get('Solvent_Material') ?? []) out.push({ paragraphId: pid, subject: s.text, relation: 'used_as', object: 'solvent' });
      }
    }
  }
  // The same gold fact annotated twice counts once.
  const seen = new Set<string>();
  return out.filter((t) => {
    const k = [t.paragraphId, t.subject, t.relation, t.object, t.value ?? ''].join('\u0000');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const MULMS_MATERIAL = new Set(['MAT', 'IMPLICIT_MAT']);
const MULMS_PROPERTY = new Set(['PROPERTY']);

function mulmsTuples(row: Obj): ComparableTuple[] {
  const byId = new Map((row.entities as Obj[]).map((e) => [e.id, e]));
  const out: ComparableTuple[] = [];
  const measured = new Map<string, Obj[]>(); // measurement → properties
  const samples = new Map<string, Obj[]>(); // measurement → materials
  const push = (head: Obj, relation: string, object: string, value?: string | null) => {
    if (head.paragraph_id && head.type === 'MAT') out.push({ paragraphId: head.paragraph_id, subject: head.text, relation, object, value: value ?? null });
  };
  const values = new Map<string, string>(); // property → its value
  for (const r of row.relations as Obj[]) {
    const h = byId.get(r.head);
    const t = byId.get(r.tail);
    if (!h || !t) continue;
    if (r.type === 'propertyValue' && MULMS_PROPERTY.has(h.type)) values.set(h.id, t.text);
  }
  for (const r of row.relations as Obj[]) {
    const h = byId.get(r.head);
    const t = byId.get(r.tail);
    if (!h || !t || (h.paragraph_id && t.paragraph_id && h.paragraph_id !== t.paragraph_id)) continue;
    if (r.type === 'measuresProperty' && h.type === 'MEASUREMENT' && MULMS_PROPERTY.has(t.type)) measured.set(h.id, [...(measured.get(h.id) ?? []), t]);
    else if (r.type === 'conditionSampleFeatures' && h.type === 'MEASUREMENT' && MULMS_MATERIAL.has(t.type))
      samples.set(h.id, [...(samples.get(h.id) ?? []), t]);
    else if (r.type === 'associatedInfo' && h.type === 'MAT' && MULMS_PROPERTY.has(t.type)) push(h, 'has_property', t.text, values.get(t.id));
    else if (r.type === 'dopedBy' && h.type === 'MAT' && t.type === 'MAT') push(h, 'doped_with', t.text);
    else if (r.type === 'usedAs' && h.type === 'MAT' && t.type === 'MAT') push(h, 'used_as', t.text);
    else if (r.type === 'usedIn' && h.type === 'MAT' && t.type === 'DEV') push(h, 'part_of', t.text);
  }
  for (const [m, props] of measured) {
    for (const mat of samples.get(m) ?? [])
      for (const p of props)
        if (!mat.paragraph_id || !p.paragraph_id || mat.paragraph_id === p.paragraph_id) push(mat, 'has_property', p.text, values.get(p.id));
  }
  return out;
}
